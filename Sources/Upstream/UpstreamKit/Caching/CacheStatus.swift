/// What the shared cache did for one call, as `Response.cacheStatus` reports it and the
/// `Cache-Status` field (RFC 9211) renders it.
public struct CacheStatus: Sendable, Equatable {
    /// How the answer was found.
    public enum Outcome: Sendable, Equatable {
        /// A fresh stored answer; the upstream was not asked.
        case hit
        /// A stale stored answer served at once while one background request refreshes it.
        case staleWhileRevalidate
        /// A stale stored answer served because the upstream failed (`stale-if-error`).
        case staleIfError
        /// The upstream confirmed a stale stored answer with a 304; its stored body was served.
        case revalidated
        /// The upstream answered a revalidation with a new answer.
        case refreshed
        /// Nothing usable was stored; the upstream answered.
        case miss
        /// The cache was not used: caching is off for the call, its method is not cacheable, or
        /// the caller asked for a range.
        case bypass
    }

    public var outcome: Outcome
    /// Whether this call itself sent the request that brought the answer (false for stored
    /// answers and for answers shared with a concurrent identical call).
    public var forwarded: Bool
    /// Whether the answer came from a concurrent identical call's request (coalesced).
    public var collapsed: Bool
    /// Whether the answer is stored now.
    public var stored: Bool
    /// Whether the stored answer came from the shared tier (another replica stored it), not this
    /// replica's memory. Next to the other flags, so that the status (which every response
    /// carries) does not grow.
    public var isFromSharedTier = false
    /// The upstream's status when it was asked.
    public var upstreamStatus: Int?
    /// Seconds of freshness the answer has left, negative once stale; nil when it is not stored.
    public var remainingFreshness: Double?
    /// Whether the answer is the same for every client: not tied to credentials of the caller's own.
    public var isShareable: Bool

    public init(
        outcome: Outcome, forwarded: Bool = false, collapsed: Bool = false, stored: Bool = false, upstreamStatus: Int? = nil,
        remainingFreshness: Double? = nil, isShareable: Bool = true
    ) {
        self.outcome = outcome
        self.forwarded = forwarded
        self.collapsed = collapsed
        self.stored = stored
        self.upstreamStatus = upstreamStatus
        self.remainingFreshness = remainingFreshness
        self.isShareable = isShareable
    }

    /// Whole seconds of freshness left, when the answer is stored, fresh and the same for every
    /// client: what a combined answer built from it may tell its own client.
    public var shareableFreshSeconds: Int? {
        guard isShareable, let remainingFreshness, remainingFreshness >= 1 else { return nil }
        switch outcome {
        case .hit, .revalidated, .refreshed, .miss: return Int(remainingFreshness)
        case .staleWhileRevalidate, .staleIfError, .bypass: return nil
        }
    }

    /// A short name for logs and metrics: `hit`, `stale`, `stale-if-error`, `revalidated`,
    /// `refreshed`, `miss`, `bypass`.
    public var label: String {
        switch outcome {
        case .hit: "hit"
        case .staleWhileRevalidate: "stale"
        case .staleIfError: "stale-if-error"
        case .revalidated: "revalidated"
        case .refreshed: "refreshed"
        case .miss: "miss"
        case .bypass: "bypass"
        }
    }

    /// This status as one member of a `Cache-Status` field (RFC 9211) for the cache named
    /// `cache`: `gateway; hit; ttl=42`, `gateway; fwd=uri-miss; fwd-status=200; stored; ttl=60`.
    public func fieldValue(cache: String) -> String {
        var parts = [cache]
        switch outcome {
        case .hit, .staleWhileRevalidate: parts.append("hit")
        case .staleIfError, .revalidated, .refreshed: parts.append("fwd=stale")
        case .miss: parts.append("fwd=uri-miss")
        case .bypass: parts.append("fwd=bypass")
        }
        if let upstreamStatus, outcome != .hit, outcome != .staleWhileRevalidate { parts.append("fwd-status=\(upstreamStatus)") }
        if stored && (outcome == .miss || outcome == .refreshed || outcome == .revalidated) { parts.append("stored") }
        if collapsed { parts.append("collapsed") }
        if let remainingFreshness { parts.append("ttl=\(Int(remainingFreshness.rounded(.down)))") }
        if outcome == .staleWhileRevalidate || outcome == .staleIfError {
            parts.append("detail=\(label)")
        } else if isFromSharedTier {
            parts.append("detail=shared")
        }
        return parts.joined(separator: "; ")
    }
}
