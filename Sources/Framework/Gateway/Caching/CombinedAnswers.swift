import HTTP1Server
import HTTPBasics
import UpstreamKit

/// One endpoint's combined answers, reused by the gateway itself for as long as it tells its
/// clients they may reuse them.
///
/// A combined answer built only from fresh, shareable upstream answers carries `max-age` (see
/// `CombinedFreshness`): a cache in front of the gateway may serve it that long. The gateway does
/// the same, and then answers without running the handler, decoding or encoding anything. It
/// keeps an answer only when the handler read nothing of the request but its target (no header,
/// cookie or body: the target is the key), and forgets it at the first invalidation of any
/// upstream answer, since it may be built from the one invalidated. A client's `Cache-Control:
/// no-cache` or `max-age=0` has the answer built anew.
struct CombinedAnswers: Sendable {
    let store: ResponseCache
    /// The endpoint's partition of the store: `endpoint GET /v1/menu`.
    let partition: String

    init(store: ResponseCache, endpoint: Endpoint) {
        self.store = store
        partition = "endpoint \(endpoint.method.rawValue) \(endpoint.path)"
    }

    /// The stored answer to `request`, when it is still fresh for it.
    ///
    /// - Parameter personal: the caller was admitted with its token: the answer is `private`
    ///   for caches in front, as `CombinedFreshness` marks it when built.
    func answer(to request: HTTPRequest, personal: Bool = false) -> HTTPResponse? {
        guard request.method == .get || request.method == .head else { return nil }
        let lookup = Self.lookupRequest(request)
        guard let stored = store.derivedAnswer(partition: partition, target: request.target, request: lookup) else { return nil }
        let now = CachingTransport.wallClock()
        guard case .fresh(let remaining) = CachePolicy.reuse(of: stored, for: lookup, settings: .standard, now: now) else { return nil }
        var headers = HTTPHeaders()
        headers.reserveCapacity(5)
        headers.add("X-Gateway-Completed", "true")
        headers.add("Cache-Control", (personal ? "private, max-age=" : "max-age=") + String(Int(remaining)))
        headers.add("Cache-Status", ProxyMessages.pseudonym + "; hit; ttl=" + String(Int(remaining)))
        headers.add("Age", String(Int(CachePolicy.currentAge(of: stored, now: now))))
        return .json(stored.response.body, status: stored.response.status, headers: headers)
    }

    /// Keeps `body`, the answer to `request`, for `seconds`.
    func keep(_ body: [UInt8], status: HTTPStatus, for request: HTTPRequest, freshFor seconds: Int) {
        guard request.method == .get else { return }
        let now = CachingTransport.wallClock()
        let response = Response(status: status, headers: ["Cache-Control": "max-age=" + String(seconds)], body: body)
        let stored = StoredResponse(response: response, requestTime: now, responseTime: now)
        store.storeDerived(stored, partition: partition, target: request.target, request: Self.lookupRequest(request))
    }

    /// The client's request as the store and the rules read it: its target and its fields.
    private static func lookupRequest(_ request: HTTPRequest) -> TransportRequest {
        TransportRequest(method: .get, origin: Origin(scheme: "gateway", host: "", port: 0), target: request.target, headers: request.headers)
    }
}
