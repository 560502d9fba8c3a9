import HTTPBasics
import HTTPServerCore
import NetworkRuntime
import Synchronization

@testable import Gateway
@testable import ReferenceScenario

/// The three scenario upstreams served by our own server on 127.0.0.1 at a free port: the demo's
/// fixtures, with per-test overrides, recording every request received.
final class StubUpstreams: Sendable {
    typealias Override = @Sendable (HTTPRequest) async -> HTTPResponse

    private let server: HTTPServer
    private let recorder = Recorder()

    private final class Recorder: Sendable {
        let state = Mutex(State())
    }

    private struct State {
        var overrides: [(pathPrefix: String, respond: Override)] = []
        var extraHeaders: [(pathPrefix: String, headers: HTTPHeaders)] = []
        var received: [HTTPRequest] = []
    }

    /// Serves HTTPS with `tls` when given, else plain HTTP.
    init(tls: TLSContext? = nil) throws {
        let base = DemoBase()
        server = try HTTPServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, shutdownGracePeriod: .milliseconds(100), tls: tls),
            responder: StubResponder(fixtures: DemoUpstreams.router(swapiBase: base), recorder: recorder))
        baseURL = (tls == nil ? "http" : "https") + "://127.0.0.1:\(server.port)"
        base.set(baseURL + "/swapi/api")
        let server = self.server
        Task { await server.run() }
    }

    let baseURL: String

    /// Points all three upstreams of a gateway here.
    var environment: [String: String] {
        [
            "UPSTREAM_DECK_URL": baseURL + "/deck/api/deck",
            "UPSTREAM_SWAPI_URL": baseURL + "/swapi/api",
            "UPSTREAM_MENU_URL": baseURL + "/menu",
        ]
    }

    /// Answers requests whose path starts with `pathPrefix` with `respond` instead of the fixture.
    func override(_ pathPrefix: String, _ respond: @escaping Override) {
        recorder.state.withLock { $0.overrides.append((pathPrefix, respond)) }
    }

    /// Answers requests under `pathPrefix` with a fixed response.
    func override(_ pathPrefix: String, status: HTTPStatus, headers: HTTPHeaders = [:], body: String) {
        let response = HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
        override(pathPrefix) { _ in response }
    }

    /// Adds `headers` to the fixtures' answers under `pathPrefix` (such as `Cache-Control`).
    func addHeaders(_ pathPrefix: String, _ headers: HTTPHeaders) {
        recorder.state.withLock { $0.extraHeaders.append((pathPrefix, headers)) }
    }

    var received: [HTTPRequest] { recorder.state.withLock { $0.received } }

    func shutdown() {
        server.shutdown()
    }

    private struct StubResponder: HTTPResponder {
        let fixtures: Router
        let recorder: Recorder

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            let (override, extraHeaders) = recorder.state.withLock { state in
                state.received.append(request)
                return (
                    state.overrides.last { request.path.hasPrefix($0.pathPrefix) }?.respond,
                    state.extraHeaders.filter { request.path.hasPrefix($0.pathPrefix) }.flatMap(\.headers))
            }
            if let override { return await override(request) }
            var response = await fixtures.respond(to: request)
            for field in extraHeaders { response.headers.add(field.name, field.value) }
            return response
        }
    }
}
