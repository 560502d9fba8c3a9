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
/// parts: `hit` when none was sent upstream, with each call's result in `detail`.
enum CombinedFreshness {
    /// The name the gateway's cache goes by in `Cache-Status`.
    static let cacheName = "gateway"

    /// Adds `Cache-Control` and `Cache-Status` for an answer built from `calls`.
    static func addHeaders(for calls: [UpstreamCallRecord], degraded: Bool, to headers: inout HTTPHeaders) {
        let statuses = calls.compactMap(\.cache)
        let freshness = calls.map { $0.cache?.shareableFreshSeconds }
        if !degraded, !freshness.isEmpty, freshness.allSatisfy({ $0 != nil }) {
            headers.add("Cache-Control", "max-age=\(freshness.compactMap { $0 }.min() ?? 0)")
        } else {
            headers.add("Cache-Control", "no-store")
        }
        guard !statuses.isEmpty else { return }
        var member = cacheName
        member += statuses.allSatisfy { $0.outcome == .hit } ? "; hit" : "; fwd=miss"
        if !degraded, let smallest = freshness.compactMap({ $0 }).min(), freshness.allSatisfy({ $0 != nil }) {
            member += "; ttl=\(smallest)"
        }
        member += "; detail=\"" + calls.map { "\($0.upstream):\($0.cache?.label ?? "none")" }.joined(separator: " ") + "\""
        headers.add("Cache-Status", member)
    }
}
