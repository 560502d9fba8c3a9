import HTTPBasics
import Testing

@testable import HTTP1Client
@testable import NetworkRuntime

@Suite("HTTPClient name resolution")
struct HTTPClientResolutionTests {
    @Test func reachesANameThroughTheSystemResolver() async throws {
        let server = try StubServer.answering(HTTPClientTests.okResponse)
        let client = HTTPClient()
        let response = try await client.send(
            HTTPClientRequest(host: "localhost", port: server.port, target: "/"), timeout: .seconds(5), maximumResponseBytes: 1024)
        #expect(response.body == Array("hello".utf8))
    }

    @Test func triesTheNextAddressWhenOneRefuses() async throws {
        // The server listens on 127.0.0.1 only, so its port on ::1 refuses.
        let server = try StubServer.answering(HTTPClientTests.okResponse)
        let port = server.port
        let lookup = ScriptedLookup(immediate: {
            .success([try! SocketAddress(host: "::1", port: port), try! SocketAddress(host: "127.0.0.1", port: port)])
        })
        let client = HTTPClient(configuration: .init(), resolver: lookup.resolver())
        let response = try await client.send(
            HTTPClientRequest(host: "dual.test", port: port, target: "/"), timeout: .seconds(5), maximumResponseBytes: 1024)
        #expect(response.status == .ok)
        #expect(lookup.lookups == 1)
    }

    @Test func anUnresolvableNameIsAConnectionFailureNamingIt() async throws {
        let lookup = ScriptedLookup(immediate: { .failure(.unresolvable(host: "nowhere.test")) })
        let client = HTTPClient(configuration: .init(), resolver: lookup.resolver())
        await #expect(throws: HTTPClientError.connectionFailed(reason: "cannot resolve host nowhere.test")) {
            try await client.send(
                HTTPClientRequest(host: "nowhere.test", port: 80, target: "/"), timeout: .seconds(5), maximumResponseBytes: 1024)
        }
    }
}
