import HTTPBasics
import Upstream

/// What a combined answer tells its client about caching, from what the shared cache said of
/// each upstream call that built it.
///
/// Only when every call's answer was stored, fresh and the same for every client may the
/// combined answer be reused, and then for as long as its least fresh part: `max-age` is the
/// smallest remaining freshness. Anything else (a part fetched uncached, one tied to a client's
/// credentials, one served stale, a degraded answer) makes it `no-store`, since a downstream
/// cache would otherwise apply a freshness of its own. `Cache-Status` (RFC 9211) sums up the
/// parts, when any was stored: `hit` when none was sent upstream, `fwd=miss` otherwise; the
/// access log has each call's result.
enum CombinedFreshness {
    /// Adds `Cache-Control` and `Cache-Status` for an answer built from `calls`; returns its
    /// `max-age`, when it has one.
    @discardableResult
    static func addHeaders(for calls: [UpstreamCallRecord], degraded: Bool, to headers: inout HTTPHeaders) -> Int? {
        var smallest = Int.max
        var allFresh = !degraded && !calls.isEmpty
        var allHits = true
        var anyStored = false
        for call in calls {
            if let status = call.cache {
                anyStored = anyStored || status.remainingFreshness != nil
                allHits = allHits && status.outcome == .hit
            } else {
                allHits = false
            }
            if let seconds = call.cache?.shareableFreshSeconds { smallest = min(smallest, seconds) } else { allFresh = false }
        }
        headers.add("Cache-Control", allFresh ? "max-age=" + String(smallest) : "no-store")
        // Nothing to say when no part was stored or served from the store.
        guard anyStored else { return nil }
        var member = ProxyMessages.pseudonym + (allHits ? "; hit" : "; fwd=miss")
        if allFresh { member += "; ttl=" + String(smallest) }
        headers.add("Cache-Status", member)
        return allFresh ? smallest : nil
    }
}
