import BrowserSession
import ClientIdentity
import HTTPBasics
import Synchronization
import Upstream

/// The OpenID provider as the gateway reaches it, through its own pooled client: discovery (fetched
/// once, again after a failure), the provider's keys (a `KeySetStore`, refreshed as their
/// `Cache-Control` says and for an unknown `kid`), and the token and revocation endpoints.
final class OpenIDProvider: Sendable {
    /// Why the provider could not be used; `problem` is what the browser is answered.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String

        /// 502 for an answer the gateway cannot use, 503 when there is none (unreachable, still starting).
        var problem: GatewayProblem {
            GatewayProblem(.badGateway, "the OpenID provider could not be used; try again later")
        }
    }

    let configuration: BrowserSignInConfiguration
    let keys: KeySetStore
    let check: IDTokenCheck
    /// Checks the logout tokens the provider posts to the back-channel logout endpoint.
    let logoutCheck: LogoutTokenCheck
    private let transport: any Transport
    private let discovery: Discovery

    /// A provider reached through `transport` (a `TimeoutTransport` over the pooled client), whose
    /// discovery and keys are fetched now, in the background; `warn` gets a line for each failure.
    init(configuration: BrowserSignInConfiguration, transport: any Transport, warn: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.transport = transport
        check = IDTokenCheck(issuer: configuration.issuer, clientID: configuration.client.clientID)
        logoutCheck = LogoutTokenCheck(issuer: configuration.issuer, clientID: configuration.client.clientID)
        let discovery = Discovery(issuer: configuration.issuer, timeout: configuration.timeout, transport: transport)
        self.discovery = discovery
        keys = KeySetStore(
            fetch: { () async throws(KeySetFetchError) in
                let metadata: ProviderMetadata
                do {
                    metadata = try await discovery.metadata()
                } catch {
                    throw KeySetFetchError(description: "\(error)")
                }
                let url: BaseURL
                do throws(InvalidBaseURL) {
                    url = try BaseURL(metadata.keySetURL)
                } catch {
                    throw KeySetFetchError(description: "jwks_uri is not a usable URL (\(error.reason))")
                }
                return try await Gateway.fetchKeySet(from: url, through: transport)
            },
            refresh: KeySetRefresh(defaultLifetime: .seconds(300), minimumInterval: .seconds(10)),
            warn: { warn("sign-in: " + $0) }, replaced: {})
    }

    /// The provider's metadata: the one in hand, or the fetch in flight (one at a time however many ask).
    func metadata() async throws(Unavailable) -> ProviderMetadata {
        try await discovery.metadata()
    }

    /// The discovery document, fetched once it is first asked for and kept; a failed fetch is tried
    /// again by the next caller.
    final class Discovery: Sendable {
        private let issuer: String
        private let timeout: Duration
        private let transport: any Transport
        private let state = Mutex<State>(State())

        /// The fetch in flight, as the failure side of a `Result` (which wants an `Error`).
        private struct Pending: Error {
            let fetch: Task<Result<ProviderMetadata, Unavailable>, Never>
        }

        private struct State {
            var metadata: ProviderMetadata?
            var fetch: Task<Result<ProviderMetadata, Unavailable>, Never>?
        }

        init(issuer: String, timeout: Duration, transport: any Transport) {
            self.issuer = issuer
            self.timeout = timeout
            self.transport = transport
        }

        func metadata() async throws(Unavailable) -> ProviderMetadata {
            let next = state.withLock { state -> Result<ProviderMetadata, Pending> in
                if let metadata = state.metadata { return .success(metadata) }
                if let fetch = state.fetch { return .failure(Pending(fetch: fetch)) }
                let fetch = Task { await self.discover() }
                state.fetch = fetch
                return .failure(Pending(fetch: fetch))
            }
            switch next {
            case .success(let metadata): return metadata
            case .failure(let pending): return try await pending.fetch.value.get()
            }
        }

        private func discover() async -> Result<ProviderMetadata, Unavailable> {
            let result: Result<ProviderMetadata, Unavailable>
            do throws(Unavailable) {
                let url = try OpenIDProvider.baseURL(ProviderMetadata.discoveryURL(of: issuer))
                let response = try await OpenIDProvider.send(
                    TransportRequest(
                        method: .get, origin: url.origin, target: url.target, headers: ["Accept": "application/json"], timeout: timeout,
                        maximumResponseBytes: ProviderMetadata.maximumBytes),
                    through: transport, describing: "discovery")
                guard response.status.isSuccess else { throw Unavailable(description: "discovery answered \(response.status.code)") }
                do {
                    result = .success(try ProviderMetadata(parsing: response.body, expectedIssuer: issuer))
                } catch {
                    throw Unavailable(description: "discovery: \(error)")
                }
            } catch {
                result = .failure(error)
            }
            state.withLock { state in
                state.fetch = nil
                if case .success(let metadata) = result { state.metadata = metadata }
            }
            return result
        }
    }

    /// Posts `form` to `url` (the token or revocation endpoint) and returns the answer whatever its status.
    func post(_ form: TokenEndpoint.FormRequest, to url: String, describing what: String) async throws(Unavailable) -> Response {
        let target = try Self.baseURL(url)
        var headers = HTTPHeaders()
        for field in form.headers { headers.add(field.name, field.value) }
        return try await Self.send(
            TransportRequest(
                method: .post, origin: target.origin, target: target.target, headers: headers, body: form.body,
                timeout: configuration.timeout, maximumResponseBytes: TokenEndpoint.maximumResponseBytes, followsRedirects: false),
            through: transport, describing: what)
    }

    /// Exchanges `form` at the token endpoint for tokens.
    func tokens(_ form: TokenEndpoint.FormRequest) async throws -> TokenEndpoint.Tokens {
        let metadata = try await metadata()
        let response = try await post(form, to: metadata.tokenEndpoint, describing: "the token endpoint")
        return try TokenEndpoint.tokens(status: response.status.code, body: response.body)
    }

    fileprivate static func send(_ request: TransportRequest, through transport: any Transport, describing what: String) async throws(Unavailable) -> Response {
        do {
            return try await transport.send(request)
        } catch {
            // The error names the failure (refused, timeout, certificate), never the request's secret.
            throw Unavailable(description: "\(what): \(error)")
        }
    }

    fileprivate static func baseURL(_ url: String) throws(Unavailable) -> BaseURL {
        do {
            return try BaseURL(url)
        } catch {
            throw Unavailable(description: "the provider's URL is not usable (\(error.reason))")
        }
    }
}
