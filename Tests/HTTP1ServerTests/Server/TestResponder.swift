import HTTP1Server
import HTTPBasics

/// A responder made of a closure.
struct TestResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest) async -> HTTPResponse

    init(_ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.handler = handler
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await handler(request)
    }

    /// Answers with the method, path and body it received.
    static let echo = TestResponder { request in
        HTTPResponse(status: .ok, body: Array("\(request.method) \(request.path) ".utf8) + request.body)
    }
}

/// Runs `body` against a fresh server on 127.0.0.1 and an ephemeral port, then shuts it down.
func withServer(
    _ configuration: ServerConfiguration = ServerConfiguration(),
    responder: some HTTPResponder = TestResponder.echo,
    rejectionLog: (@Sendable (RejectedRequest) -> Void)? = nil,
    _ body: (HTTPServer) async throws -> Void
) async throws {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let server = try HTTPServer(configuration: configuration, responder: responder, rejectionLog: rejectionLog)
    let running = Task { await server.run() }
    do {
        try await body(server)
    } catch {
        server.shutdown()
        await running.value
        throw error
    }
    server.shutdown()
    await running.value
}
