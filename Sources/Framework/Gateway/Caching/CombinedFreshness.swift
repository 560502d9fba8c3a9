import HTTPBasics
import UpstreamKit

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
///
/// An answer that is the caller's own (built after its token was checked, or from its fields,
/// cookies, body or claims) is `private`: a browser may reuse it, a shared cache in front of the
/// gateway (nginx's `proxy_cache`, a CDN) must not serve it to anyone else, even one that ignores
/// RFC 9111 §3.5's rule on requests with `Authorization`, as nginx's does.
enum CombinedFreshness {
    /// Adds `Cache-Control` and `Cache-Status` for an answer built from `calls`; returns its
    /// `max-age`, when it has one.
    ///
    /// - Parameter personal: the answer is the caller's own: `private` before its `max-age`.
    @discardableResult
    static func addHeaders(for calls: [UpstreamCallRecord], degraded: Bool, personal: Bool = false, to headers: inout HTTPHeaders) -> Int? {
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
        headers.add("Cache-Control", allFresh ? (personal ? "private, max-age=" : "max-age=") + String(smallest) : "no-store")
        // Nothing to say when no part was stored or served from the store.
        guard anyStored else { return nil }
        var member = ProxyMessages.pseudonym + (allHits ? "; hit" : "; fwd=miss")
        if allFresh { member += "; ttl=" + String(smallest) }
        headers.add("Cache-Status", member)
        return allFresh ? smallest : nil
    }
}
