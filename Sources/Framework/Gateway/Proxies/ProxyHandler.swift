import HTTP1Server
import HTTPBasics
import UpstreamKit

/// Serves one proxy route: checks the rest of the path, relays the request through the
/// upstream's `Upstream` (credentials, timeouts, retries, breaker, limits) as one recorded call,
/// and passes the answer on.
struct ProxyHandler: Sendable {
    let route: ProxyRoute
    /// nil when the catalog lacks the route's upstream, which its check reports before serving.
    let upstream: ConfiguredUpstream?
    /// Whether clients reach the gateway over TLS, for `Forwarded` and `X-Forwarded-Proto`.
    let isSecure: Bool
    /// The proxies in front whose forwarding field is extended rather than replaced.
    let trustedProxies: TrustedProxies
    /// The upstream's answer fields not passed on besides the hop-by-hop ones.
    private let withheld: [String]
    /// Opens the WebSockets that requests ask for; nil relays such requests as any other.
    let webSockets: WebSocketProxy?
    /// The gateway's own cookies (the browser session's), never relayed: an upstream must not learn a session id.
    var ownCookies: [String] = []

    /// - Parameter speaksCORS: the gateway has a CORS policy (`CORS_ALLOWED_ORIGINS`), whose
    ///   fields replace the upstream's own: a browser must see one policy, the gateway's.
    init(
        route: ProxyRoute, upstream: ConfiguredUpstream?, isSecure: Bool, trustedProxies: TrustedProxies = TrustedProxies([]),
        speaksCORS: Bool = false, webSockets: WebSocketProxy? = nil
    ) {
        self.route = route
        self.upstream = upstream
        self.isSecure = isSecure
        self.trustedProxies = trustedProxies
        self.webSockets = webSockets
        withheld = ProxyMessages.replacedInResponses + (speaksCORS ? CrossOriginPolicy.answerFields : [])
    }

    /// The `Allow` of a refused TRACE: the usual methods, though any other is relayed too.
    private static let allowed = PrefixMatch.listedMethods.map(\.rawValue).joined(separator: ", ")

    /// - Parameter personal: the caller was admitted with its token, so the answer is its own
    ///   for the caches in front (`ProxyMessages.privatize`).
    /// - Parameter userAccessToken: the signed-in user's token, for an upstream that takes it.
    func respond(
        to request: HTTPRequest, below match: PrefixMatch, scope: RequestScope, personal: Bool = false, userAccessToken: String? = nil
    ) async -> HTTPResponse {
        // An upstream answering TRACE echoes the request it got, credentials included.
        guard request.method != .trace else {
            return .problem(
                .methodNotAllowed, detail: "The gateway does not relay TRACE.", instance: request.path, headers: ["Allow": Self.allowed])
        }
        let target: EncodedTarget
        do {
            target = try EncodedTarget(path: match.remainder, query: request.query)
        } catch {
            return .problem(.badRequest, detail: "The request target cannot be passed on: \(error).", instance: request.path)
        }
        guard let upstream else {
            return .problem(.internalServerError, detail: "upstream \(route.upstream) is not in the catalog", instance: request.path)
        }
        if let refusal = refusalOfOversizedBody(request) { return refusal }
        let client = UpstreamClient(name: route.upstream, upstream: upstream, scope: scope, userAuthorization: userAccessToken.map { "Bearer " + $0 })
        if let webSockets, WebSocketHandshake.isRequested(by: request) {
            return await webSockets.open(
                request, to: target, through: client, route: route, isSecure: isSecure, trusting: trustedProxies, withholding: withheld)
        }
        do {
            let response = try await client.exchange(relayed(request, to: target))
            return ProxyMessages.clientResponse(
                for: response, answeringHEAD: request.method == .head, withholding: withheld, personal: personal)
        } catch {
            return error.problem.response(instance: request.path)
        }
    }

    /// The 413 for a body longer than the route's limit says it may be, known from its length
    /// before any of it is read; nil otherwise. A body of unknown length is held to the limit as
    /// it is sent on. Never inlined, so that the problem's temporaries stay out of `respond`'s frame.
    @inline(never)
    private func refusalOfOversizedBody(_ request: HTTPRequest) -> HTTPResponse? {
        guard let limit = route.maximumRequestBytes, (request.bodyStream?.length ?? request.body.count) > limit else { return nil }
        request.bodyStream?.cancel()
        return .problem(.contentTooLarge, detail: "The request body is over \(limit) bytes.", instance: request.path)
    }

    /// The upstream request for `request`. Never inlined: its temporaries would enlarge the async
    /// frame that `respond` holds while the upstream answers.
    @inline(never)
    private func relayed(_ request: HTTPRequest, to target: EncodedTarget) -> Request<Response> {
        var headers = ProxyMessages.upstreamHeaders(for: request, isSecure: isSecure, trusting: trustedProxies)
        if !ownCookies.isEmpty { ProxyMessages.removeCookies(named: ownCookies, from: &headers) }
        var relayed = Request<Response>(
            request.method, .encoded(target), headers: headers,
            body: request.body.isEmpty ? nil : request.body, requiresAuthentication: route.upstreamCredentials == .sent
        ) { response throws(UpstreamError) in response }
        relayed.storesCookies = false
        relayed.followsRedirects = false
        relayed.streamsResponse = true
        if let stream = request.bodyStream {
            relayed.bodyStream = route.maximumRequestBytes.map { stream.limited(to: $0) } ?? stream
        }
        return relayed
    }
}
