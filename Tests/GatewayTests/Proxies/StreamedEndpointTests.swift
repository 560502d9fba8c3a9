import GatewayTesting
import HTTP1Client
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway

extension UpstreamDefinition {
    fileprivate static let clock = UpstreamDefinition(name: "clock", defaultBaseURL: "http://127.0.0.1:9")
}

// The example of `Endpoint.init(_:summary:…:contentType:stream:)`'s documentation, as written there.
extension Endpoint {
    fileprivate static let ticks = Endpoint(
        "/v1/ticks", summary: "Three numbered events, one per upstream clock tick",
        upstreams: [.clock], contentType: "text/event-stream"
    ) { call in
        let clock = try call.upstream(.clock)
        let ticks = try await clock.stream("ticks")
        return .writing { writer in
            var count = 0
            while count < 3, let piece = try await ticks.next() {
                count += 1
                try await writer.write(Array("id: \(count)\ndata: ".utf8) + piece + Array("\n\n".utf8))
            }
            ticks.cancel()
        }
    }
}

/// A framework endpoint that answers with a stream: written piece by piece from an upstream's
/// stream, through the same types a proxy route uses.
@Suite("Streamed endpoints")
struct StreamedEndpointTests {
    @Test("a streamed endpoint sends each piece as its handler writes it, and its upstream's stream ends with it")
    func ticks() async throws {
        let seen = Signal()
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        let upstreamEnded = Signal()
        stub.answer("/ticks") { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], bodyStream: .writing { writer in
                var tick = 0
                do {
                    while true {
                        tick += 1
                        try await writer.write(Array("tick \(tick)".utf8))
                        await seen.wait(for: tick)
                    }
                } catch {
                    upstreamEnded.reach(1)
                    throw error
                }
            })
        }
        let gateway = try GatewayUnderTest(
            catalog: GatewayCatalog(upstreams: [.clock], endpoints: [.ticks]), environment: ["UPSTREAM_CLOCK_URL": stub.baseURL])
        let client = HTTPClient()
        let response = try await client.send(
            HTTPClientRequest(host: "127.0.0.1", port: gateway.port, target: "/v1/ticks"), timeout: .seconds(10), maximumResponseBytes: 1 << 20,
            streamingBodiesOver: 0)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/event-stream")
        let stream = try #require(response.bodyStream)
        var events: [String] = []
        while let piece = try await stream.next() {
            events.append(String(decoding: piece, as: UTF8.self))
            seen.reach(events.count)
        }
        #expect(events == (1...3).map { "id: \($0)\ndata: tick \($0)\n\n" })
        // The stub writes on unhindered now, until a write finds its connection closed.
        seen.reach(.max)
        await upstreamEnded.wait(for: 1)
        client.shutdown()
        await gateway.stop()
    }

    @Test("a streamed endpoint whose upstream fails before the stream answers the usual problem")
    func failureBeforeTheStream() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/ticks", status: 503)
        let gateway = try GatewayUnderTest(
            catalog: GatewayCatalog(upstreams: [.clock], endpoints: [.ticks]), environment: ["UPSTREAM_CLOCK_URL": stub.baseURL])
        let response = try await gateway.get("/v1/ticks")
        await gateway.stop()
        #expect(response.status == 502)
        #expect(response.headers["Content-Type"] == "application/problem+json")
    }
}
