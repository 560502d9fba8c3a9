import HTTPBasics
import HTTPServerCore
import Synchronization

/// An upstream stand-in for endpoint tests: the gateway's own HTTP server on 127.0.0.1 at a
/// free port, answering canned responses by method and path and recording what it received.
/// No network beyond loopback, no sleeps.
///
/// ```swift
/// let weather = try StubUpstream()
/// defer { weather.shutdown() }
/// weather.answer("/current/oslo", json: #"{"city":"oslo","temperature":3.5,"conditions":"snow"}"#)
/// weather.answer("/alerts/oslo", status: 503)
/// let gateway = try GatewayUnderTest(catalog: catalog, environment: ["UPSTREAM_WEATHER_URL": weather.baseURL])
/// ```
public final class StubUpstream: Sendable {
    /// A request the stub received.
    public struct ReceivedRequest: Sendable {
        /// `GET`, `POST`, …
        public let method: String
        /// The raw path, without the query.
        public let path: String
        /// The raw query after `?`, or nil.
        public let query: String?
        /// Every header field as sent.
        public let headers: HTTPHeaders
        /// The body as sent.
        public let body: [UInt8]
    }

    private struct CannedResponse {
        let method: HTTPMethod?
        let path: String
        let respond: @Sendable (ReceivedRequest) async -> HTTPResponse
    }

    private final class State: Sendable {
        let value = Mutex<(responses: [CannedResponse], received: [ReceivedRequest])>(([], []))
    }

    private let server: HTTPServer
    private let state = State()

    /// Starts serving on 127.0.0.1 at a free port; paths without a canned response answer 404.
    public init() throws {
        let state = self.state
        server = try HTTPServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, shutdownGracePeriod: .milliseconds(100)),
            responder: Responder(state: state))
        let server = self.server
        Task { await server.run() }
    }

    /// The base URL to give the gateway (`UPSTREAM_<NAME>_URL`): `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// Answers requests for `path` (and `method`, when given) with `status` and a JSON `json`
    /// body; the latest canned response for a path wins.
    public func answer(_ path: String, method: HTTPMethod? = nil, status: Int = 200, json: String = "{}", headers: HTTPHeaders = [:]) {
        let response = HTTPResponse.json(Array(json.utf8), status: HTTPStatus(code: status), headers: headers)
        answer(path, method: method) { _ in response }
    }

    /// Answers requests for `path` (and `method`, when given) with whatever `respond` returns,
    /// such as a response that depends on the request's body or headers.
    public func answer(_ path: String, method: HTTPMethod? = nil, _ respond: @escaping @Sendable (ReceivedRequest) async -> HTTPResponse) {
        state.value.withLock { $0.responses.append(CannedResponse(method: method, path: path, respond: respond)) }
    }

    /// Every request received so far, in arrival order.
    public var received: [ReceivedRequest] { state.value.withLock { $0.received } }

    /// Stops serving.
    public func shutdown() {
        server.shutdown()
    }

    private struct Responder: HTTPResponder {
        let state: State

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            let received = ReceivedRequest(
                method: request.method.rawValue, path: request.path, query: request.query, headers: request.headers, body: request.body)
            let respond = state.value.withLock { value in
                value.received.append(received)
                return value.responses.last { $0.path == request.path && ($0.method == nil || $0.method == request.method) }?.respond
            }
            guard let respond else {
                return .problem(.notFound, detail: "The stub has no response for this path.", instance: request.path)
            }
            return await respond(received)
        }
    }
}
