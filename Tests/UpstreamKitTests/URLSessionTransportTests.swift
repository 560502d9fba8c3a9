import HTTPBasics
import Testing
@testable import FoundationTransport
@testable import UpstreamKit

@Suite(.serialized) struct URLSessionTransportTests {
    private static let transport = URLSessionTransport(maximumConnectionsPerHost: 4)

    private func withServer(_ body: (Origin) async throws -> Void) async throws {
        let server = try LoopbackServer { target in
            switch target {
            case "/ok":
                LoopbackServer.response("200 OK", headers: [
                    "Content-Type: application/json",
                    "Set-Cookie: rl=1; Path=/",
                    "Set-Cookie: session=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/",
                ], body: Array(#"{"ok":true}"#.utf8))
            case "/redirect":
                LoopbackServer.response("302 Found", headers: ["Location: http://127.0.0.1:1/elsewhere"])
            case "/big":
                LoopbackServer.response("200 OK", body: [UInt8](repeating: 65, count: 200_000))
            case "/hang":
                nil
            default:
                LoopbackServer.response("404 Not Found")
            }
        }
        defer { server.stop() }
        try await body(Origin(scheme: "http", host: "127.0.0.1", port: Int(server.port)))
    }

    @Test func returnsStatusHeadersAndBodyWithEveryCookie() async throws {
        try await withServer { origin in
            let response = try await Self.transport.send(TransportRequest(method: .get, origin: origin, target: "/ok", headers: ["Accept": "application/json"]))
            #expect(response.status == .ok)
            #expect(response.body == Array(#"{"ok":true}"#.utf8))
            #expect(Set(response.headers.values(named: "Set-Cookie")) == ["rl=1; Path=/", "session=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/"])
        }
    }

    @Test func neverFollowsRedirects() async throws {
        try await withServer { origin in
            let response = try await Self.transport.send(TransportRequest(method: .get, origin: origin, target: "/redirect"))
            #expect(response.status == .found)
        }
    }

    @Test func cutsOffOversizedBodies() async throws {
        try await withServer { origin in
            await #expect(throws: UpstreamError.bodyTooLarge(limit: 1000)) {
                try await Self.transport.send(TransportRequest(method: .get, origin: origin, target: "/big", maximumResponseBytes: 1000))
            }
        }
    }

    @Test func timeoutsAreOursAndPrompt() async throws {
        try await withServer { origin in
            let start = ContinuousClock.now
            await #expect(throws: UpstreamError.timedOut) {
                try await TimeoutTransport(wrapping: Self.transport)
                    .send(TransportRequest(method: .get, origin: origin, target: "/hang", timeout: .milliseconds(200)))
            }
            #expect(start.duration(to: .now) < .seconds(3))
        }
    }

    @Test func refusedConnectionsAreConnectionFailures() async throws {
        let server = try LoopbackServer { _ in nil }
        let origin = Origin(scheme: "http", host: "127.0.0.1", port: Int(server.port))
        server.stop()
        let error = await #expect(throws: UpstreamError.self) {
            try await Self.transport.send(TransportRequest(method: .get, origin: origin, target: "/"))
        }
        guard case .connectionFailed = error else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
    }
}
