import HTTPBasics
import HTTPServerCore
import NetworkRuntime

/// The upstream the transport suite talks to: our own `HTTPServer` on 127.0.0.1 with a few
/// fixed routes, started per test and shut down after it.
struct StubUpstream: HTTPResponder {
    static let largeBodyBytes = 200_000

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        switch request.path {
        case "/json":
            return .json(Array(#"{"name":"Luke Skywalker"}"#.utf8), headers: ["X-Upstream": "stub"])
        case "/cookies":
            return HTTPResponse(status: .ok, headers: HTTPHeaders([.init(name: "Set-Cookie", value: "a=1"), .init(name: "Set-Cookie", value: "b=2")]))
        case "/echo":
            let headers: HTTPHeaders = ["X-Method": request.method.rawValue, "X-Test": request.headers["X-Test"] ?? ""]
            return HTTPResponse(status: .created, headers: headers, body: request.body)
        case "/large":
            return HTTPResponse(status: .ok, body: [UInt8](repeating: UInt8(ascii: "a"), count: Self.largeBodyBytes))
        case "/slow":
            try? await Task.sleep(for: .seconds(10))
            return HTTPResponse(status: .ok)
        default:
            return HTTPResponse(status: .notFound, body: Array("not here".utf8))
        }
    }

    /// Runs `body` with the port of a fresh server answering as this stub does.
    static func serve(_ body: (Int) async throws -> Void) async throws {
        let server = try HTTPServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, shutdownGracePeriod: .milliseconds(100)),
            responder: StubUpstream())
        let running = Task { await server.run() }
        do {
            try await body(server.port)
        } catch {
            server.shutdown()
            await running.value
            throw error
        }
        server.shutdown()
        await running.value
    }

    /// Runs `body` with the port of a one-shot listener that answers the first request with
    /// `response` verbatim: for framings `HTTPServer` never writes, such as chunked bodies.
    static func serveRaw(_ response: String, _ body: (Int) async throws -> Void) async throws {
        let listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        let serving = Task {
            let socket = try await listener.accept(registeringOn: .shared)
            var buffer = ReadBuffer()
            while !buffer.withUnsafeReadableBytes({ Self.containsEndOfHead($0) }) {
                guard try await socket.read(into: &buffer, deadline: nil) > 0 else { return }
            }
            try await socket.write(Array(response.utf8), deadline: nil)
            socket.close()
        }
        defer {
            serving.cancel()
            listener.close()
        }
        try await body(listener.port)
    }

    private static func containsEndOfHead(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4 else { return false }
        return (3..<bytes.count).contains { bytes[$0 - 3] == 13 && bytes[$0 - 2] == 10 && bytes[$0 - 1] == 13 && bytes[$0] == 10 }
    }
}
