import Glibc
import HTTPBasics
import Synchronization

/// A shared HTTP cache (RFC 9111) in front of another transport: fresh stored answers are served
/// without asking the upstream, stale ones are revalidated (conditionally, when they have
/// validators), served while one background request refreshes them (`stale-while-revalidate`)
/// or instead of a failure (`stale-if-error`), and concurrent identical requests share one
/// upstream request.
///
/// What each request may do follows `TransportRequest.cache` (nil: pass straight through) and the
/// rules of `CachePolicy`; what happened is in the answer's `Response.cacheStatus`. Answers to
/// requests that carry the caller's own credentials (`Authorization`, cookies, API keys) are
/// keyed by those values, so they are never served to a caller without the same ones; so are the
/// answers to requests with an `X-Forwarded-Host`, by the host it names. Unsafe
/// requests (POST, PUT, PATCH, DELETE) invalidate what is stored for their URL.
///
/// A request shared by several callers runs in a task of its own: each caller waits for it within
/// its own deadline and may give up (cancellation) without cancelling it for the others; a
/// failure reaches every caller and is not stored. When the shared answer cannot be stored, or
/// varies on a field a caller sent differently, that caller sends its own request at once.
public final class CachingTransport: Transport {
    private let base: any Transport
    private let store: ResponseCache
    private let sharedTier: (any SharedResponseTier)?
    private let partition: String
    private let now: @Sendable () -> Double
    private let inFlight = Mutex<[FetchKey: SharedFetch]>([:])
    /// Whether the upstream's latest answers said nothing about caching (no `Cache-Control`,
    /// `Expires` or validators): while nothing of it is stored either, its calls go straight
    /// through, at the cost of one look at each answer's field names.
    private let sendsNoCaching = Atomic<Bool>(false)
    /// How many answers of this transport's partition the store holds.
    private let storedAnswers: ResponseCache.StoredCount

    /// - Parameters:
    ///   - store: where answers are kept; one store may serve many transports.
    ///   - partition: what this transport's answers are kept under, apart from every other
    ///     transport's: the upstream's name.
    ///   - now: the wall clock, in seconds since 1970; `Date` and `Expires` are read against it.
    ///   - sharedTier: a tier other replicas share, asked on a local miss before the upstream and
    ///     given what is stored here; nil for none.
    public init(
        wrapping base: any Transport, store: ResponseCache, partition: String,
        now: @escaping @Sendable () -> Double = CachingTransport.wallClock, sharedTier: (any SharedResponseTier)? = nil
    ) {
        self.base = base
        self.store = store
        self.sharedTier = sharedTier
        self.partition = partition
        self.now = now
        storedAnswers = store.storedCount(of: partition)
    }

    /// The system's real-time clock, in seconds since 1970.
    @Sendable public static func wallClock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    public var enforcesTimeout: Bool { base.enforcesTimeout }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        guard let settings = request.cache, settings.isEnabled else { return try await base.send(request) }
        if sendsNoCaching.load(ordering: .relaxed), mayGoStraightThrough(request, settings: settings) {
            let requestTime = now()
            var response = try await base.send(request)
            guard !response.headers.contains(where: { CachePolicy.isCachingField($0.name) }) else {
                sendsNoCaching.store(false, ordering: .relaxed)
                return recordPassed(response, to: request, settings: settings, requestTime: requestTime, passing: false)
            }
            response.cacheStatus = Self.straightThrough(response.status)
            return response
        }
        // The decision is made in a synchronous function, so that what it needs stays off the
        // async frame every call in flight holds: the frequent paths (a stored answer, an URL
        // known to pass) then cost one frame's worth of the request, not several.
        switch route(request, settings: settings) {
        case .answered(let response):
            return response
        case .bypass:
            return try await bypass(request)
        case .pass:
            let requestTime = now()
            let response = try await base.send(request)
            return recordPassed(response, to: request, settings: settings, requestTime: requestTime, passing: true)
        case .fetch(let call, let stored):
            return try await shared(call, stored: stored)
        }
    }

    /// How `send` goes on with a request.
    private enum Route {
        /// Served from the store (fresh, stale while a refresh runs, or a 504 for `only-if-cached`).
        case answered(Response)
        /// Not for the cache: an unsafe method or a range.
        case bypass
        /// Such requests' answers could not be stored lately: sent on alone, uncoalesced.
        case pass
        /// Nothing usable stored, or it needs revalidating: one shared upstream request.
        case fetch(CallBox, stored: StoredResponse?)
    }

    /// A `Call` behind one reference, so that `Route` stays small in `send`'s frame.
    final class CallBox: Sendable {
        let call: Call
        init(_ call: Call) { self.call = call }
    }

    @inline(never)
    private func route(_ request: TransportRequest, settings: CacheSettings) -> Route {
        guard request.method == .get else { return .bypass }
        let call = Call(request: request, settings: settings, partition: partition)
        guard !call.hasRange else { return .bypass }
        switch store.lookup(call.key, credentials: call.variant, request: request) {
        case .stored(let stored):
            let now = self.now()
            switch CachePolicy.reuse(of: stored, for: request, settings: settings, now: now) {
            case .fresh(let remaining):
                let status = CacheStatus(outcome: .hit, remainingFreshness: remaining, isShareable: call.isShareable)
                return .answered(call.answer(from: stored, status: status, now: now))
            case .staleWhileRevalidate:
                refreshInBackground(call, stored: stored)
                let status = CacheStatus(
                    outcome: .staleWhileRevalidate, remainingFreshness: CachePolicy.remainingFreshness(of: stored, settings: settings, now: now),
                    isShareable: call.isShareable)
                return .answered(call.answer(from: stored, status: status, now: now))
            case .revalidate:
                return call.onlyIfCached ? .answered(Self.notCached) : .fetch(CallBox(call), stored: stored)
            }
        case .pass:
            return call.onlyIfCached ? .answered(Self.notCached) : .pass
        case .none:
            return call.onlyIfCached ? .answered(Self.notCached) : .fetch(CallBox(call), stored: nil)
        }
    }

    /// Stores the answer to a request sent on alone when it can be stored after all, and passes it
    /// on with its status.
    ///
    /// - Parameter passing: whether such requests are marked as passing already.
    @inline(never)
    private func recordPassed(
        _ response: Response, to request: TransportRequest, settings: CacheSettings, requestTime: Double, passing: Bool
    ) -> Response {
        let call = Call(request: request, settings: settings, partition: partition)
        return record(response, for: call, revalidating: false, passing: passing, requestTime: requestTime, responseTime: now()).response
    }

    /// Whether `request` may skip the cache because nothing could be served for it: nothing of
    /// this upstream is stored, the settings grant no freshness of their own, and the caller sent
    /// no directives (`only-if-cached` must still be answered here).
    @inline(never)
    private func mayGoStraightThrough(_ request: TransportRequest, settings: CacheSettings) -> Bool {
        !settings.grantsFreshness
            && !request.headers.contains { $0.name.utf8.count == 13 && $0.name.equalsIgnoringASCIICase("Cache-Control") }
            && storedAnswers.value.load(ordering: .relaxed) == 0
    }

    /// The status of an answer that went straight through: a miss nothing was stored for, not
    /// known to be the same for every caller (its credentials were not looked at).
    @inline(never)
    private static func straightThrough(_ status: HTTPStatus) -> CacheStatus {
        CacheStatus(outcome: .miss, forwarded: true, upstreamStatus: status.code, isShareable: false)
    }

    /// The 504 a cache answers `only-if-cached` with when it has nothing usable (RFC 9111 §5.2.1.7).
    private static let notCached = Response(
        status: HTTPStatus(code: 504), cacheStatus: CacheStatus(outcome: .miss))

    /// Sends a request the cache does not answer; an unsafe one that succeeds invalidates what
    /// is stored for its URL and the URLs its answer names.
    private func bypass(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        var response = try await base.send(request)
        for target in CachePolicy.invalidatedTargets(by: request, response: response) {
            store.invalidate(ResponseCache.Key(partition: partition, origin: request.origin, target: target))
        }
        response.cacheStatus = CacheStatus(outcome: .bypass, forwarded: true, upstreamStatus: response.status.code)
        return response
    }

    /// Callers waiting for shared upstream requests now, for tests and diagnostics.
    var waitingCallers: Int {
        inFlight.withLock { $0.values.reduce(0) { $0 + $1.waiterCount } }
    }

    // MARK: Sharing one upstream request

    /// What identifies requests that may share one upstream request: the URL and the call's
    /// variant (credentials, forwarded host). Fields the answer varies on are checked once it is known.
    struct FetchKey: Hashable {
        var key: ResponseCache.Key
        var variant: String
    }

    /// Joins the upstream request already running for `call`'s URL, or starts one, and waits for
    /// it within the caller's deadline.
    private func shared(_ box: CallBox, stored: StoredResponse?) async throws(UpstreamError) -> Response {
        let call = box.call
        let fetchKey = FetchKey(key: call.key, variant: call.variant)
        let (fetch, started) = inFlight.withLock { running in
            if let fetch = running[fetchKey] { return (fetch, false) }
            let fetch = SharedFetch()
            running[fetchKey] = fetch
            return (fetch, true)
        }
        if started { run(fetch, for: call.shared, stored: stored, key: fetchKey) }
        let exchange = try await fetch.wait(until: call.request.deadline).get()
        if started {
            var response = exchange.response
            if response.cacheStatus?.isFromSharedTier != true { response.cacheStatus?.forwarded = true }
            return response
        }
        // Another caller's answer serves this one only when it is stored and selected by the same fields.
        guard let sharedStored = exchange.stored, CachePolicy.matches(sharedStored, call.request) else {
            return try await self.exchange(call, stored: stored).response
        }
        var response = call.answer(from: sharedStored, status: exchange.response.cacheStatus ?? CacheStatus(outcome: .miss), now: now())
        response.cacheStatus?.collapsed = true
        response.cacheStatus?.forwarded = false
        return response
    }

    /// Refreshes `stored` in a task of its own, unless a request for it is already running.
    private func refreshInBackground(_ call: Call, stored: StoredResponse) {
        let fetchKey = FetchKey(key: call.key, variant: call.variant)
        let fetch: SharedFetch? = inFlight.withLock { running in
            guard running[fetchKey] == nil else { return nil }
            let fetch = SharedFetch()
            running[fetchKey] = fetch
            return fetch
        }
        if let fetch { run(fetch, for: call.shared, stored: stored, key: fetchKey) }
    }

    /// Runs the upstream exchange for `fetch` in a task that no caller owns, so that no caller's
    /// cancellation or deadline ends it for the others; its own timeout bounds it. The first
    /// caller's attempt observer hears of its retries: the request carries that call's headers.
    private func run(_ fetch: SharedFetch, for call: Call, stored: StoredResponse?, key: FetchKey) {
        Task.detached {
            if stored == nil, let sharedTier = self.sharedTier {
                await self.fetch(fetch, for: call, through: sharedTier, key: key)
            } else {
                await self.fetch(fetch, for: call, stored: stored, key: key)
            }
        }
    }

    /// The body of `run`'s task.
    private func fetch(_ fetch: SharedFetch, for call: Call, stored: StoredResponse?, key: FetchKey) async {
        let result: Result<Exchange, UpstreamError>
        do throws(UpstreamError) {
            result = .success(try await exchange(call, stored: stored))
        } catch {
            result = .failure(error)
        }
        inFlight.withLock { _ = $0.removeValue(forKey: key) }
        fetch.complete(result)
    }

    // MARK: One exchange with the upstream

    /// An upstream answer as the cache passed it on, and what it stored of it.
    struct Exchange: Sendable {
        var response: Response
        var stored: StoredResponse?
    }

    /// Asks the upstream for `call` (conditionally on `stored` when it has validators), stores
    /// what may be stored, and serves `stored` instead of a failure when `stale-if-error` allows.
    ///
    /// - Parameter passing: whether such requests are already marked as passing uncoalesced.
    private func exchange(_ call: Call, stored: StoredResponse?, passing: Bool = false) async throws(UpstreamError) -> Exchange {
        var outgoing = call.outgoing
        if let stored { outgoing = CachePolicy.validating(outgoing, against: stored) }
        let requestTime = now()
        var response: Response
        do {
            response = try await base.send(outgoing)
            if response.message.bodyStream != nil { response = try await wholeIfFits(response, for: call) }
        } catch {
            if let stored, Self.allowsStaleAnswer(error),
               CachePolicy.mayServeOnError(stored, for: call.request, settings: call.settings, now: now()) {
                return staleOnError(call, stored: stored, upstreamStatus: nil)
            }
            throw error
        }
        let responseTime = now()
        if let stored, response.status.code == 304, outgoing.headers.contains("If-None-Match") || outgoing.headers.contains("If-Modified-Since") {
            if let refreshed = CachePolicy.refreshed(stored, by: response, requestTime: requestTime, responseTime: responseTime) {
                let kept = store.store(refreshed, at: call.key, credentials: call.variant, request: call.request)
                if kept { saveShared(refreshed, for: call, now: responseTime) }
                let status = CacheStatus(
                    outcome: .revalidated, forwarded: true, stored: kept, upstreamStatus: 304,
                    remainingFreshness: CachePolicy.remainingFreshness(of: refreshed, settings: call.settings, now: responseTime),
                    isShareable: call.isShareable)
                return Exchange(response: call.answer(from: refreshed, status: status, now: responseTime), stored: kept ? refreshed : nil)
            }
            // The 304 confirms another answer than the one stored: ask again without conditions.
            return try await self.exchange(call, stored: nil)
        }
        if let stored, response.status.code >= 500,
           CachePolicy.mayServeOnError(stored, for: call.request, settings: call.settings, now: responseTime) {
            return staleOnError(call, stored: stored, upstreamStatus: response.status.code)
        }
        return record(response, for: call, revalidating: stored != nil, passing: passing, requestTime: requestTime, responseTime: responseTime)
    }

    /// Stores `response` when it may be stored (else remembers not to coalesce such requests),
    /// and passes it on with its status.
    private func record(
        _ response: Response, for call: Call, revalidating: Bool, passing: Bool, requestTime: Double, responseTime: Double
    ) -> Exchange {
        let outcome: CacheStatus.Outcome = revalidating ? .refreshed : .miss
        if response.message.bodyStream == nil,
            CachePolicy.mayStore(response, to: call.outgoing, authorized: call.isAuthorized, settings: call.settings) {
            sendsNoCaching.store(false, ordering: .relaxed)
            let stored = CachePolicy.stored(response, to: call.request, requestTime: requestTime, responseTime: responseTime)
            if store.store(stored, at: call.key, credentials: call.variant, request: call.request) {
                saveShared(stored, for: call, now: responseTime)
                let status = CacheStatus(
                    outcome: outcome, forwarded: true, stored: true, upstreamStatus: response.status.code,
                    remainingFreshness: CachePolicy.remainingFreshness(of: stored, settings: call.settings, now: responseTime),
                    isShareable: call.isShareable)
                // The answer served is built from the stored copy; the call that brought it
                // still has the breaker's ticket to settle.
                var answer = call.answer(from: stored, status: status, now: responseTime)
                answer.admission = response.admission
                return Exchange(response: answer, stored: stored)
            }
        } else {
            if !passing { store.markPass(at: call.key, credentials: call.variant, request: call.request) }
            if !response.headers.contains(where: { CachePolicy.isCachingField($0.name) }) {
                sendsNoCaching.store(true, ordering: .relaxed)
            }
        }
        var passed = response
        passed.cacheStatus = CacheStatus(outcome: outcome, forwarded: true, upstreamStatus: response.status.code, isShareable: call.isShareable)
        return Exchange(response: passed, stored: nil)
    }

    /// A streamed answer (`TransportRequest.streamsResponse`) that may be stored, read whole when
    /// it fits a stored entry, so that it is stored like any other; a longer one comes back as a
    /// stream again, with what was read ahead in front, and is passed on untouched and not stored.
    /// Only an answer whose fields let it be stored is read ahead (one that says nothing of
    /// caching, a trickling log or an answer sent as it is made, passes at once), and never an
    /// event stream: each event goes on as it comes.
    ///
    /// Never inlined, and called only for streamed answers: its frame stays out of those of the
    /// calls every request makes.
    @inline(never)
    private func wholeIfFits(_ response: Response, for call: Call) async throws(UpstreamError) -> Response {
        guard let stream = response.message.bodyStream, !Self.isEventStream(response.headers),
            CachePolicy.mayStore(response, to: call.outgoing, authorized: call.isAuthorized, settings: call.settings)
        else { return response }
        var pieces: [[UInt8]] = []
        var size = 0
        do {
            while size <= store.maximumEntryBytes {
                guard let piece = try await stream.next() else {
                    var whole = response
                    whole.message.bodyStream = nil
                    whole.message.body = pieces.count == 1 ? pieces[0] : Array(pieces.joined())
                    return whole
                }
                size += piece.count
                pieces.append(piece)
            }
        } catch {
            throw error == .timedOut ? .timedOut : error == .cancelled ? .cancelled : .invalidResponse(reason: error.description)
        }
        var passed = response
        passed.message.bodyStream = .joining(pieces, then: stream)
        return passed
    }

    /// Whether `headers` describe an event stream (`text/event-stream`).
    static func isEventStream(_ headers: HTTPHeaders) -> Bool {
        guard let type = headers["Content-Type"] else { return false }
        return type.utf8.count >= 17 && type.prefix(17).equalsIgnoringASCIICase("text/event-stream")
    }

    // MARK: The shared tier

    /// The body of `run`'s task when nothing is stored here and a shared tier may hold the
    /// answer: a fresh one found there is served and stored here too; a stale one is revalidated,
    /// or stands in for a failure, as a stale answer stored here would be; none, or one that does
    /// not match the caller's varying fields, is fetched. Apart from `fetch(_:for:stored:key:)`,
    /// so that without a tier the task's frames are what they were.
    private func fetch(_ fetch: SharedFetch, for call: Call, through tier: any SharedResponseTier, key: FetchKey) async {
        let sharedKey = call.sharedKey
        guard let found = await tier.load(sharedKey).flatMap({ bytes in
            StoredResponseCoding.decode(bytes, key: sharedKey, for: call.request, digest: tier.digest) { tier.refused(sharedKey, reason: $0) }
        }) else {
            return await self.fetch(fetch, for: call, stored: nil, key: key)
        }
        let now = self.now()
        guard case .fresh(let remaining) = CachePolicy.reuse(of: found, for: call.request, settings: call.settings, now: now) else {
            return await self.fetch(fetch, for: call, stored: found, key: key)
        }
        let kept = store.store(found, at: call.key, credentials: call.variant, request: call.request)
        var status = CacheStatus(outcome: .hit, stored: kept, remainingFreshness: remaining, isShareable: call.isShareable)
        status.isFromSharedTier = true
        inFlight.withLock { _ = $0.removeValue(forKey: key) }
        fetch.complete(.success(Exchange(response: call.answer(from: found, status: status, now: now), stored: found)))
    }

    /// Hands `stored` to the shared tier for as long as another replica could serve it.
    private func saveShared(_ stored: StoredResponse, for call: Call, now: Double) {
        guard let sharedTier else { return }
        let lifetime = CachePolicy.sharedLifetime(of: stored, settings: call.settings, now: now)
        // Whole milliseconds; less than one is nothing another replica could use.
        guard lifetime >= 0.001, lifetime < 1e9 else { return }
        let key = call.sharedKey
        sharedTier.save(StoredResponseCoding.encode(stored, key: key, digest: sharedTier.digest), under: key, lifetime: .milliseconds(Int64(lifetime * 1000)))
    }

    /// Whether `error` is the upstream failing (`stale-if-error` then applies), rather than the
    /// caller giving up or a request that could not be sent.
    private static func allowsStaleAnswer(_ error: UpstreamError) -> Bool {
        switch error {
        case .cancelled, .invalidRequest, .refusedLink: false
        default: true
        }
    }

    private func staleOnError(_ call: Call, stored: StoredResponse, upstreamStatus: Int?) -> Exchange {
        let now = self.now()
        let status = CacheStatus(
            outcome: .staleIfError, upstreamStatus: upstreamStatus,
            remainingFreshness: CachePolicy.remainingFreshness(of: stored, settings: call.settings, now: now), isShareable: call.isShareable)
        return Exchange(response: call.answer(from: stored, status: status, now: now), stored: nil)
    }
}
