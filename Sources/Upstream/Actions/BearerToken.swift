import Synchronization

/// Sends `Authorization: Bearer <token>` on requests that require authentication, and only on those.
///
/// When `refreshHeader` is set, a token the upstream hands out in that response field (such as
/// `X-Refreshed-Token`) replaces the current one for every later request.
public final class BearerToken: UpstreamAction {
    /// The whole `Authorization` value, built once per token rather than once per request.
    private let authorization: Mutex<String>
    private let refreshHeader: String?

    /// The response field a refreshed token comes in unless another is given. It carries a
    /// credential, so whoever passes answers on to clients must withhold it.
    public static let defaultRefreshHeader = "X-Refreshed-Token"

    /// - Throws: `.invalidRequest` when the token could not be sent as a header value.
    public init(_ token: String, refreshHeader: String? = defaultRefreshHeader) throws(UpstreamError) {
        guard Self.isUsable(token) else { throw .invalidRequest(reason: "bearer token is not a valid header value") }
        authorization = Mutex("Bearer " + token)
        self.refreshHeader = refreshHeader
    }

    public func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        guard request.requiresAuthentication else { return }
        request.headers.set("Authorization", authorization.withLock { $0 })
    }

    /// Takes a refreshed token; asks for one resend of a request answered 401 when it went out
    /// with a token that has since been replaced (a concurrent answer carried a newer one), so
    /// calls racing a rotation do not fail. A 401 to the current token is the caller's to handle.
    public func received(_ response: Response, for request: TransportRequest) async throws(UpstreamError) -> ResponseVerdict {
        if let refreshHeader, let refreshed = response.headers[refreshHeader], Self.isUsable(refreshed) {
            authorization.withLock { $0 = "Bearer " + refreshed }
            return .accept
        }
        guard response.status == .unauthorized, request.requiresAuthentication, let sent = request.headers["Authorization"] else {
            return .accept
        }
        return authorization.withLock { $0 != sent } ? .resend : .accept
    }

    /// RFC 6750 `b64token` characters only, so a hostile response cannot plant CR/LF in our requests.
    static func isUsable(_ token: some StringProtocol) -> Bool {
        !token.isEmpty && token.utf8.count <= 8192 && token.utf8.allSatisfy { byte in
            PercentEncoding.isUnreserved(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
        }
    }
}
