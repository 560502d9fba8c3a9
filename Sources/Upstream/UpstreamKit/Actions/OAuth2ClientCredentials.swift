import Foundation
import HTTPBasics
import Synchronization

/// Obtains an access token with the OAuth 2.0 client-credentials grant (RFC 6749 §4.4) and sends it
/// as a bearer token on requests that require authentication.
///
/// The token is cached until shortly before it expires. However many requests need a token at once,
/// one fetch is in flight and the others wait for it. On a 401 the token is dropped and the request
/// resent once, but only when the 401 answered the current token: a 401 for a token already replaced
/// just resends with the new one. Token fetches go through `transport` directly, never through the
/// upstream's action chain, and at most one per `minimumRefreshInterval`, so a rejected client cannot
/// make every call fetch again.
public final class OAuth2ClientCredentials: UpstreamAction {
    private struct Token {
        var value: String
        var renewAt: ContinuousClock.Instant
    }

    private struct State {
        var token: Token?
        var fetch: Task<Result<Token, UpstreamError>, Never>?
        var lastFetch: ContinuousClock.Instant?
    }

    private struct TokenResponse: Decodable, Sendable {
        var access_token: String
        var expires_in: Int?
    }

    private let state = Mutex(State())
    private let tokenURL: BaseURL
    private let credentials: String
    private let scope: String?
    private let transport: any Transport
    private let time: TimeSource
    private let minimumRefreshInterval: Duration

    /// - Parameters:
    ///   - tokenURL: the token endpoint, an `http` or `https` URL without query.
    ///   - transport: the transport token requests go through: not the upstream's chain. Wrap it in a
    ///     `TimeoutTransport` so a hanging token endpoint cannot hold callers.
    /// - Throws: `.invalidRequest` when `tokenURL` is not a usable URL.
    public init(
        tokenURL: String,
        clientID: String,
        clientSecret: String,
        scope: String? = nil,
        transport: any Transport,
        minimumRefreshInterval: Duration = .seconds(5),
        time: TimeSource = .continuous
    ) throws(UpstreamError) {
        do {
            self.tokenURL = try BaseURL(tokenURL)
        } catch {
            throw .invalidRequest(reason: "OAuth2 token URL: \(error.reason)")
        }
        credentials = Data((Self.formEncoded(clientID) + ":" + Self.formEncoded(clientSecret)).utf8).base64EncodedString()
        self.scope = scope
        self.transport = transport
        self.minimumRefreshInterval = minimumRefreshInterval
        self.time = time
    }

    public func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        guard request.requiresAuthentication else { return }
        let token = try await currentToken(for: request)
        request.headers.set("Authorization", "Bearer " + token)
    }

    public func received(_ response: Response, for request: TransportRequest) async throws(UpstreamError) -> ResponseVerdict {
        guard response.status == .unauthorized, request.requiresAuthentication,
              let sent = request.headers["Authorization"]
        else { return .accept }
        let now = time.now()
        return state.withLock { state in
            guard let current = state.token, "Bearer " + current.value == sent else {
                // Already replaced (or being replaced) since this request left: resend with the new one.
                return .resend
            }
            if let lastFetch = state.lastFetch, lastFetch.duration(to: now) < minimumRefreshInterval {
                return .accept
            }
            state.token = nil
            return .resend
        }
    }

    /// The token to send with `request`; a fetch it waited for is told to its attempt observer.
    private func currentToken(for request: TransportRequest) async throws(UpstreamError) -> String {
        enum Next {
            case ready(String)
            case wait(Task<Result<Token, UpstreamError>, Never>)
        }
        let now = time.now()
        let next = state.withLock { state -> Next in
            if let token = state.token, now < token.renewAt { return .ready(token.value) }
            if let fetch = state.fetch { return .wait(fetch) }
            let fetch = Task { await self.fetchAndStore() }
            state.fetch = fetch
            return .wait(fetch)
        }
        switch next {
        case .ready(let token):
            return token
        case .wait(let fetch):
            let result = await fetch.value
            var failure: UpstreamError?
            if case .failure(let error) = result { failure = error }
            request.attemptObserver?.renewedCredentials(during: request, CredentialRenewal(source: .clientCredentialsGrant, failure: failure))
            return try result.get().value
        }
    }

    private func fetchAndStore() async -> Result<Token, UpstreamError> {
        let result: Result<Token, UpstreamError>
        do throws(UpstreamError) {
            result = .success(try await fetchToken())
        } catch {
            result = .failure(error)
        }
        let now = time.now()
        state.withLock { state in
            state.fetch = nil
            state.lastFetch = now
            if case .success(let token) = result { state.token = token }
        }
        return result
    }

    private func fetchToken() async throws(UpstreamError) -> Token {
        var body = "grant_type=client_credentials"
        if let scope { body += "&scope=" + Self.formEncoded(scope) }
        let request = TransportRequest(
            method: .post,
            origin: tokenURL.origin,
            target: tokenURL.target,
            headers: [
                "Authorization": "Basic " + credentials,
                "Content-Type": "application/x-www-form-urlencoded",
                "Accept": "application/json",
            ],
            body: Array(body.utf8),
            maximumResponseBytes: 64 << 10
        )
        let response = try await transport.send(request)
        guard response.status.isSuccess else { throw .status(response.status, retryAfter: nil) }
        let decoded = try JSONBody.decode(TokenResponse.self, from: response.body)
        guard BearerToken.isUsable(decoded.access_token) else { throw .decodingFailed(reason: "access token is not a valid header value") }
        // Renew at 90% of the lifetime, so a token never expires on its way to the upstream.
        let lifetime = Duration.seconds(max(1, decoded.expires_in ?? 300))
        return Token(value: decoded.access_token, renewAt: time.now() + lifetime * 0.9)
    }

    /// `application/x-www-form-urlencoded` as RFC 6749 §2.3.1 asks for client credentials.
    private static func formEncoded(_ value: String) -> String {
        var bytes: [UInt8] = []
        PercentEncoding.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
