import Glibc
import HTTPBasics
import HTTPClientCore
import HTTPServerCore
import NetworkRuntime
import Testing
import Upstream

@testable import Gateway
import ReferenceScenario

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
        let test = try TestGateway(environment: Self.trustingTestAuthority, upstreamTLS: try Self.serverTLS("server"))
        defer { test.shutdown() }
        #expect(test.stubs.baseURL.hasPrefix("https://"))
        let menu = await test.get("/v1/menu")
        #expect(menu.status == .ok)
        let person = await test.get("/v1/people/1")
        #expect(person.status == .ok)
        #expect(test.stubs.received.count >= 6)
    }

    @Test("an untrusted certificate is a 502 naming the upstream and the certificate, and one warning line")
    func untrustedCertificate() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let output = LogOutput(descriptor: descriptors[1], interval: .seconds(60))
        let test = try TestGateway(
            environment: Self.trustingTestAuthority.merging(["LOG_LEVEL": "warning"]) { $1 }, logOutput: output,
            upstreamTLS: try Self.serverTLS("expired"))
        defer { test.shutdown() }
        let response = await test.get("/v1/people/1")
        #expect(response.status == .badGateway)
        #expect(response.text.contains("upstream swapi presented a certificate that is not trusted: certificate has expired"))
        #expect(test.stubs.received.isEmpty)
        output.close()
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptors[0], &bytes, bytes.count)
        let log = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        #expect(log.contains(#""level":"warning","message":"upstream swapi presented a certificate that is not trusted: certificate has expired""#))
        close(descriptors[0])
    }

    @Test(
        "a host name is verified against subjectAltName only: a certificate naming it only in its common name is refused",
        arguments: [("server", HTTPStatus.ok), ("common-name-only", .badGateway)])
    func commonNameIsNotChecked(certificate: String, expected: HTTPStatus) async throws {
        let stubs = try StubUpstreams(tls: try Self.serverTLS(certificate))
        defer { stubs.shutdown() }
        // By name: OpenSSL's fallback to the common name concerns host names, never addresses.
        let port = try #require(stubs.baseURL.split(separator: ":").last)
        let configuration = try GatewayConfiguration(
            environment: stubs.environment.merging(Self.trustingTestAuthority) { $1 }
                .merging(["UPSTREAM_DECK_URL": "https://localhost:\(port)/deck/api/deck"]) { $1 },
            upstreams: GatewayCatalog.reference.upstreams)
        let gateway = try Gateway(configuration: configuration, catalog: .reference, transport: UpstreamTransports(for: configuration).make)
        let response = await gateway.responder.respond(to: HTTPRequest(method: .get, target: "/v1/deal?players=1&cards=1"))
        #expect(response.status == expected)
        if expected == .badGateway {
            #expect(response.text.contains("upstream deck presented a certificate that is not trusted: hostname mismatch"))
            #expect(stubs.received.isEmpty)
        }
    }

    @Test("TLS_CERT_FILE and TLS_KEY_FILE make the gateway serve HTTPS")
    func servesHTTPS() async throws {
        let stubs = try StubUpstreams()
        defer { stubs.shutdown() }
        let configuration = try GatewayConfiguration(
            environment: stubs.environment.merging([
                "HOST": "127.0.0.1", "PORT": "0", "EVENT_LOOPS": "1",
                "TLS_CERT_FILE": TestCertificates.path("server.pem"), "TLS_KEY_FILE": TestCertificates.path("server.key"),
            ]) { $1 },
            upstreams: GatewayCatalog.reference.upstreams)
        let gateway = try Gateway(configuration: configuration, catalog: .reference, transport: UpstreamTransports(for: configuration).make)
        let server = try GatewayServer(gateway: gateway)
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
