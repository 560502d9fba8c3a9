import GatewayTesting
import HTTP1Server
import HTTPBasics

/// The upstream the transport suite talks to: a `StubUpstream` with a few fixed routes, started
/// per test and shut down after it.
enum TransportStub {
    static let largeBodyBytes = 200_000

    /// Runs `body` with the port of a fresh stub answering the suite's routes.
    static func serve(_ body: (Int) async throws -> Void) async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/json", json: #"{"name":"Luke Skywalker"}"#, headers: ["X-Upstream": "stub"])
        stub.answer("/cookies") { _ in
            HTTPResponse(status: .ok, headers: HTTPHeaders([.init(name: "Set-Cookie", value: "a=1"), .init(name: "Set-Cookie", value: "b=2")]))
        }
        stub.answer("/echo") { request in
            HTTPResponse(status: .created, headers: ["X-Method": request.method, "X-Test": request.headers["X-Test"] ?? ""], body: request.body)
        }
        let large = HTTPResponse(status: .ok, body: [UInt8](repeating: UInt8(ascii: "a"), count: largeBodyBytes))
        stub.answer("/large") { _ in large }
        stub.answer(under: "/slow", after: .seconds(10))
        stub.answer(under: "/missing", status: .notFound, body: "not here")
        try await body(stub.port)
    }
}
