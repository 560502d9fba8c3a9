import HTTP1Server
import HTTPBasics
import NetworkRuntime

/// Our own `HTTPServer` on a loopback port in this process, answering every request with the
/// same JSON body: the far end for the pooled client's benchmarks.
struct StubServer: Sendable {
    private struct FixedResponder: HTTPResponder {
        let response: HTTPResponse

        func respond(to request: HTTPRequest) async -> HTTPResponse { response }
    }

    let server: HTTPServer
    private let serving: Task<Void, Never>

    var port: Int { server.port }

    init(body: [UInt8]) throws(SocketError) {
        server = try HTTPServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, shutdownGracePeriod: .seconds(1)),
            responder: FixedResponder(response: .json(body)))
        let server = server
        serving = Task { await server.run() }
    }

    func stop() async {
        server.shutdown()
        await serving.value
    }
}
