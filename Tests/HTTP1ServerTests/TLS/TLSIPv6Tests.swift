import HTTP1Client
import HTTP1Server
import HTTPBasics
import Testing

@Suite("TLS over IPv6")
struct TLSIPv6Tests {
    @Test(arguments: ["[::1]", "::1"])
    func verifiesAnIPv6AddressWithOrWithoutBrackets(host: String) async throws {
        var configuration = ServerConfiguration(tls: try TestCertificates.server())
        configuration.host = "::1"
        configuration.port = 0
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration: configuration, responder: TestResponder.echo)
        } catch {
            return  // No IPv6 loopback on this machine: nothing to verify against.
        }
        let running = Task { await server.run() }
        defer {
            server.shutdown()
            running.cancel()
        }
        let response = try await HTTPClient().send(
            HTTPClientRequest(host: host, port: server.port, target: "/six", tls: try TestCertificates.client()),
            timeout: .seconds(5), maximumResponseBytes: 1024)
        #expect(response.body == Array("GET /six ".utf8))
    }
}
