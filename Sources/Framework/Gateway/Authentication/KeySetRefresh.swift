/// When a fetched key set is fetched again: a function of the past fetches and the clock.
///
/// A set is used for as long as its answer's `max-age` says (else the configured interval),
/// within [minimum interval, one day]. A token naming an unknown `kid` may fetch it early, but
/// at most once per minimum interval, so a stream of forged `kid`s cannot become a stream of
/// fetches to the identity provider; a failed fetch is retried no sooner than that either.
struct KeySetRefresh: Sendable {
    let defaultLifetime: Duration
    let minimumInterval: Duration
    /// Until when the set in use is fresh; nil before the first successful fetch.
    private(set) var freshUntil: ContinuousClock.Instant?
    /// When the last fetch, of any cause, ended.
    private var lastFetch: ContinuousClock.Instant?
    /// When the last fetch for an unknown `kid` started.
    private var lastUnknownKeyFetch: ContinuousClock.Instant?

    init(defaultLifetime: Duration, minimumInterval: Duration) {
        self.defaultLifetime = defaultLifetime
        self.minimumInterval = minimumInterval
    }

    /// Whether the set should be fetched again now, in the background of the request that asks.
    func isDue(at now: ContinuousClock.Instant) -> Bool {
        if let freshUntil, now < freshUntil { return false }
        guard let lastFetch else { return true }
        return lastFetch.duration(to: now) >= minimumInterval
    }

    /// Whether a token with a `kid` the set lacks may fetch it now; records that it does.
    mutating func mayFetchForUnknownKey(at now: ContinuousClock.Instant) -> Bool {
        if let lastUnknownKeyFetch, lastUnknownKeyFetch.duration(to: now) < minimumInterval { return false }
        lastUnknownKeyFetch = now
        return true
    }

    /// Records a successful fetch whose answer said `maxAge` seconds (nil: nothing).
    mutating func fetched(at now: ContinuousClock.Instant, maxAge: Int?) {
        let lifetime = maxAge.map { Duration.seconds(min($0, 86_400)) } ?? defaultLifetime
        freshUntil = now + max(lifetime, minimumInterval)
        lastFetch = now
    }

    /// Records a failed fetch: the set in use stays, however old.
    mutating func failed(at now: ContinuousClock.Instant) {
        lastFetch = now
    }
}
