import BrowserSession
import CallerIdentity
import HTTPBasics
import Synchronization
import UpstreamKit

/// The OpenID provider as the gateway reaches it, through its own pooled client: discovery (fetched
/// once, again after a failure), the provider's keys (a `KeySetStore`, refreshed as their
/// `Cache-Control` says and for an unknown `kid`), and the token and revocation endpoints.
final class OpenIDProvider: Sendable {
    /// Why the provider could not be used; `problem` is what the browser is answered.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
        /// Whether the provider answered and its answer rules out this configuration (it does not take
        /// the client's authentication method): start-up ends on it, where waiting would not help.
        var isConfigurationError = false

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
        let discovery = Discovery(
            issuer: configuration.issuer, client: configuration.client, timeout: configuration.timeout, transport: transport,
            warn: { warn("sign-in: " + $0) })
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

    /// The one line start-up ends with when the provider answers discovery with a document that
    /// rules this configuration out; nil when it fits, or when the provider cannot be asked now
    /// (the sign-in then answers 502 until it can).
    func startupRefusal() async -> String? {
        do {
            _ = try await metadata()
            return nil
        } catch {
            return error.isConfigurationError ? "configuration error: \(error.description)" : nil
        }
    }

    /// The discovery document, fetched once it is first asked for and kept; a failed fetch is tried
    /// again by the next caller. Without a `revocation_endpoint` in it, RFC 8414's document is read
    /// for one (django-oauth-toolkit names it only there); that one failing only warns.
    final class Discovery: Sendable {
        private let issuer: String
        private let client: TokenEndpoint
        private let timeout: Duration
        private let transport: any Transport
        private let warn: @Sendable (String) -> Void
        private let state = Mutex<State>(State())

        /// The fetch in flight, as the failure side of a `Result` (which wants an `Error`).
        private struct Pending: Error {
            let fetch: Task<Result<ProviderMetadata, Unavailable>, Never>
        }

        private struct State {
            var metadata: ProviderMetadata?
            var fetch: Task<Result<ProviderMetadata, Unavailable>, Never>?
        }

        init(
            issuer: String, client: TokenEndpoint, timeout: Duration, transport: any Transport,
            warn: @escaping @Sendable (String) -> Void
        ) {
            self.issuer = issuer
            self.client = client
            self.timeout = timeout
            self.transport = transport
            self.warn = warn
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
                let response = try await get(ProviderMetadata.discoveryURL(of: issuer), describing: "discovery")
                guard response.status.isSuccess else { throw Unavailable(description: "discovery answered \(response.status.code)") }
                var metadata: ProviderMetadata
                do {
                    metadata = try ProviderMetadata(parsing: response.body, expectedIssuer: issuer)
                } catch {
                    throw Unavailable(description: "discovery: \(error)")
                }
                if let refusal = metadata.refusal(of: client) {
                    throw Unavailable(description: "\(ConfigurationVariable.openIDClientAuthentication.name) \(refusal)", isConfigurationError: true)
                }
                if metadata.revocationEndpoint == nil { metadata.revocationEndpoint = await authorizationServerRevocationEndpoint() }
                result = .success(metadata)
            } catch {
                result = .failure(error)
            }
            state.withLock { state in
                state.fetch = nil
                if case .success(let metadata) = result { state.metadata = metadata }
            }
            return result
        }

        /// The `revocation_endpoint` of the RFC 8414 metadata, from the first of its URLs that has a
        /// document for this issuer; nil, with a warning, when none does.
        private func authorizationServerRevocationEndpoint() async -> String? {
            var problems: [String] = []
            for url in ProviderMetadata.authorizationServerMetadataURLs(of: issuer) {
                do throws(Unavailable) {
                    let response = try await get(url, describing: "authorization server metadata")
                    guard response.status.isSuccess else {
                        problems.append("\(url) answered \(response.status.code)")
                        continue
                    }
                    do {
                        return try ProviderMetadata.revocationEndpoint(parsing: response.body, issuer: issuer)
                    } catch {
                        problems.append("\(url): \(error)")
                    }
                } catch {
                    problems.append(error.description)
                }
            }
            warn("no revocation endpoint, so logout revokes no refresh token: " + problems.joined(separator: "; "))
            return nil
        }

        private func get(_ url: String, describing what: String) async throws(Unavailable) -> Response {
            let target = try OpenIDProvider.baseURL(url)
            return try await OpenIDProvider.send(
                TransportRequest(
                    method: .get, origin: target.origin, target: target.target, headers: ["Accept": "application/json"], timeout: timeout,
                    maximumResponseBytes: ProviderMetadata.maximumBytes),
                through: transport, describing: what)
        }
    }

    /// Sends `grant` to `url` (the token or revocation endpoint) with the client's authentication as
    /// of `now`, and returns the answer whatever its status.
    func post(_ grant: TokenEndpoint.Grant, to url: String, now: Double, describing what: String) async throws(Unavailable) -> Response {
        let metadata = try await metadata()
        let form = configuration.client.request(grant, audience: metadata.tokenEndpoint, now: now)
        let target = try Self.baseURL(url)
        var headers = HTTPHeaders()
        for field in form.headers { headers.add(field.name, field.value) }
        return try await Self.send(
            TransportRequest(
                method: .post, origin: target.origin, target: target.target, headers: headers, body: form.body,
                timeout: configuration.timeout, maximumResponseBytes: TokenEndpoint.maximumResponseBytes, followsRedirects: false),
            through: transport, describing: what)
    }

    /// Exchanges `grant` at the token endpoint for tokens.
    func tokens(_ grant: TokenEndpoint.Grant, now: Double) async throws -> TokenEndpoint.Tokens {
        let metadata = try await metadata()
        let response = try await post(grant, to: metadata.tokenEndpoint, now: now, describing: "the token endpoint")
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
