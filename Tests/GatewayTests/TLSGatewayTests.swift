import GatewayTesting
import Glibc
import HTTP1Client
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import ReferenceScenario
import Testing
import UpstreamKit

@testable import Gateway

@Suite("TLS in the gateway")
struct TLSGatewayTests {
    static let trustingTestAuthority = [
        "UPSTREAM_DECK_CA_FILE": TestCertificates.path("ca.pem"),
        "UPSTREAM_SWAPI_CA_FILE": TestCertificates.path("ca.pem"),
        "UPSTREAM_MENU_CA_FILE": TestCertificates.path("ca.pem"),
    ]

    static func serverTLS(_ stem: String) throws -> TLSContext {
        try .server(certificateFile: TestCertificates.path(stem + ".pem"), privateKeyFile: TestCertificates.path(stem + ".key"))
    }

    @Test("https upstreams are called through the pooled client, verified against UPSTREAM_*_CA_FILE")
    func httpsUpstreams() async throws {
        try await withScenarioGateway(environment: Self.trustingTestAuthority, upstreamTLS: try Self.serverTLS("server")) { test, stubs in
            #expect(stubs.baseURL.hasPrefix("https://"))
            let menu = try await test.get("/v1/menu")
            #expect(menu.status == 200)
            let person = try await test.get("/v1/people/1")
            #expect(person.status == 200)
            #expect(stubs.received.count >= 6)
        }
    }

    @Test("an untrusted certificate is a 502 naming the upstream and the certificate, and one warning line")
    func untrustedCertificate() async throws {
        let capture = try LogCapture()
        defer { capture.close() }
        try await withScenarioGateway(
            environment: Self.trustingTestAuthority.merging(["LOG_LEVEL": "warning"]) { $1 }, log: capture,
            upstreamTLS: try Self.serverTLS("expired")) { test, stubs in
            let response = try await test.get("/v1/people/1")
            #expect(response.status == 502)
            #expect(response.text.contains("upstream swapi presented a certificate that is not trusted: certificate has expired"))
            #expect(stubs.received.isEmpty)
            let log = await capture.lines { !$0.isEmpty }.joined(separator: "\n")
            #expect(log.contains(#""level":"warning","message":"upstream swapi presented a certificate that is not trusted: certificate has expired""#))
        }
    }

    @Test(
        "a host name is verified against subjectAltName only: a certificate naming it only in its common name is refused",
        arguments: [("server", HTTPStatus.ok), ("common-name-only", .badGateway)])
    func commonNameIsNotChecked(certificate: String, expected: HTTPStatus) async throws {
        let stubs = try StubUpstream.scenario(tls: try Self.serverTLS(certificate))
        defer { stubs.shutdown() }
        // By name: OpenSSL's fallback to the common name concerns host names, never addresses.
        let port = try #require(stubs.baseURL.split(separator: ":").last)
        let environment = stubs.scenarioEnvironment.merging(Self.trustingTestAuthority) { $1 }
            .merging(["UPSTREAM_DECK_URL": "https://localhost:\(port)/deck/api/deck"]) { $1 }
        try await withGateway(catalog: .reference, environment: environment) { gateway in
            let response = try await gateway.get("/v1/deal?players=1&cards=1")
            #expect(response.status == expected.code)
            if expected == .badGateway {
                #expect(response.text.contains("upstream deck presented a certificate that is not trusted: hostname mismatch"))
                #expect(stubs.received.isEmpty)
            }
        }
    }

    @Test("an OpenID provider behind a private CA is trusted with OIDC_CA_FILE, and refused without it")
    func providerBehindAPrivateAuthority() async throws {
        let provider = try StubUpstream(tls: try Self.serverTLS("server"), fallback: nil)
        defer { provider.shutdown() }
        let issuer = provider.baseURL
        #expect(issuer.hasPrefix("https://"))
        provider.answer(
            "/.well-known/openid-configuration",
            json: #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token","jwks_uri":"\#(issuer)/jwks"}"#)
        provider.answer("/jwks", json: #"{"keys":[]}"#)
        let environment = [
            "OIDC_ISSUER": issuer, "OIDC_CLIENT_ID": "app", "OIDC_CLIENT_SECRET": "s3cret", "OIDC_REDIRECT_URI": "https://app.example/bff/callback",
        ]
        try await withGateway(catalog: .reference, environment: environment.merging(["OIDC_CA_FILE": TestCertificates.path("ca.pem")]) { $1 }) { gateway in
            let login = try await gateway.get("/bff/login")
            #expect(login.status == 302)
            #expect(login.headers["Location"]?.hasPrefix(issuer + "/authorize?") == true)
        }
        try await withGateway(catalog: .reference, environment: environment) { gateway in
            let login = try await gateway.get("/bff/login")
            #expect(login.status == 502, "the system's trust does not know the test CA")
        }
        #expect(throws: GatewayStartupError.self) {
            try GatewayUnderTest(catalog: .reference, environment: environment.merging(["OIDC_CA_FILE": "/nonexistent/ca.pem"]) { $1 })
        }
        #expect(throws: GatewayStartupError.self) {
            try GatewayUnderTest(
                catalog: .reference,
                environment: environment.merging(["OIDC_ISSUER": "http://127.0.0.1:1", "OIDC_CA_FILE": TestCertificates.path("ca.pem")]) { $1 })
        }
    }

    @Test("TLS_CERT_FILE and TLS_KEY_FILE make the gateway serve HTTPS")
    func servesHTTPS() async throws {
        // GatewayUnderTest's client speaks plain HTTP: this test serves the command's own server.
        let stubs = try StubUpstream.scenario()
        defer { stubs.shutdown() }
        let environment = stubs.scenarioEnvironment.merging([
            "HOST": "127.0.0.1", "PORT": "0", "EVENT_LOOPS": "1",
            "TLS_CERT_FILE": TestCertificates.path("server.pem"), "TLS_KEY_FILE": TestCertificates.path("server.key"),
        ]) { $1 }
        let server = try GatewayServer(catalog: .reference, environment: environment, logOutput: nil)
        let running = Task { await server.server.run() }
        defer {
            server.shutdown()
            running.cancel()
        }
        let tls = try TLSContext.client(trustedCertificatesFile: TestCertificates.path("ca.pem"))
        let response = try await HTTPClient().send(
            HTTPClientRequest(host: "127.0.0.1", port: server.port, target: "/v1/menu", tls: tls),
            timeout: .seconds(5), maximumResponseBytes: 1 << 20)
        #expect(response.status == .ok)
        #expect(response.body.count > 100)
    }
}
