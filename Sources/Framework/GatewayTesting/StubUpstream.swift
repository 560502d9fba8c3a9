import HTTP1Server
import HTTPBasics
package import NetworkRuntime
import Synchronization
import UpstreamKit

/// An upstream stand-in for endpoint tests, answering canned responses by method and path and
/// recording what it received: either the gateway's own HTTP server on 127.0.0.1 at a free port
/// (`StubUpstream()`, for a gateway on loopback), or answered in the test's process without a
/// socket (`StubUpstream.inProcess()`, for `withGateway(catalog:upstreams:environment:log:_:)`). No network
/// beyond loopback, no sleeps.
///
/// ```swift
/// let weather = try StubUpstream()
/// defer { weather.shutdown() }
/// weather.answer("/current/oslo", json: #"{"city":"oslo","temperature":3.5,"conditions":"snow"}"#)
/// weather.answer("/alerts/oslo", status: 503)
/// try await withGateway(catalog: catalog, environment: ["UPSTREAM_WEATHER_URL": weather.baseURL]) { gateway in
///     #expect(try await gateway.get("/v1/forecast/oslo").status == 200)
/// }
/// ```
public final class StubUpstream: Sendable {
    /// A request the stub received.
    public struct ReceivedRequest: Sendable {
        /// `GET`, `POST`, …
        public let method: String
        /// The raw target as sent: the path with its query.
        public let target: String
        /// The raw path, without the query.
        public let path: String
        /// The raw query after `?`, or nil.
        public let query: String?
        /// Every header field as sent.
        public let headers: HTTPHeaders
        /// The body as sent.
        public let body: [UInt8]
    }

    /// Which request paths a canned response is for.
    private enum PathMatch {
        case exactly(String)
        case under(String)

        func matches(_ path: String) -> Bool {
            switch self {
            case .exactly(let expected): path == expected
            case .under(let prefix): path.hasPrefix(prefix)
            }
        }
    }

    private struct CannedResponse {
        let method: HTTPMethod?
        let paths: PathMatch
        let respond: @Sendable (ReceivedRequest) async -> HTTPResponse
    }

    private struct State {
        var responses: [CannedResponse] = []
        var addedHeaders: [(prefix: String, headers: HTTPHeaders)] = []
        var received: [ReceivedRequest] = []
    }

    private final class Recorder: Sendable {
        let state = Mutex(State())
    }

    /// Nil for a stub answered in process.
    private let server: HTTPServer?
    private let recorder = Recorder()
    private let responder: Responder

    /// The base URL to give the gateway (`UPSTREAM_<NAME>_URL`): `http://127.0.0.1:<port>`, or
    /// `https://…` for a stub serving TLS; `http://in-process.invalid` for a stub answered in
    /// process, which no socket reaches.
    public let baseURL: String

    /// The port it listens on, for clients that take one rather than `baseURL`; 0 in process.
    package var port: Int { server?.port ?? 0 }

    /// Starts serving on 127.0.0.1 at a free port; paths without a canned response answer 404.
    public convenience init() throws {
        try self.init(tls: nil, fallback: nil)
    }

    /// A stub answered in the test's process, without a socket: give it to
    /// `withGateway(catalog:upstreams:environment:log:_:)` under its upstream's name. Paths without a
    /// canned response answer 404.
    public static func inProcess() -> StubUpstream {
        StubUpstream(fallback: nil)
    }

    private init(fallback: (any HTTPResponder)?) {
        server = nil
        responder = Responder(recorder: recorder, fallback: fallback)
        baseURL = "http://in-process.invalid"
    }

    /// Starts serving on 127.0.0.1 at a free port, over TLS with `tls` when given; requests
    /// without a canned response go to `fallback` (such as a router serving fixtures), else
    /// answer 404.
    package init(tls: TLSContext?, fallback: (any HTTPResponder)?) throws {
        responder = Responder(recorder: recorder, fallback: fallback)
        let server = try HTTPServer(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, timeouts: Self.timeouts, shutdownGracePeriod: .milliseconds(100), tls: tls),
            responder: responder)
        self.server = server
        baseURL = (tls == nil ? "http" : "https") + "://127.0.0.1:\(server.port)"
        Task { await server.run() }
    }

    /// Answers requests for `path` (and `method`, when given) with `status` and a JSON `json`
    /// body; the latest canned response for a path wins.
    public func answer(_ path: String, method: HTTPMethod? = nil, status: Int = 200, json: String = "{}", headers: HTTPHeaders = [:]) {
        let response = HTTPResponse.json(Array(json.utf8), status: HTTPStatus(code: status), headers: headers)
        answer(path, method: method) { _ in response }
    }

    /// Answers requests for `path` (and `method`, when given) with whatever `respond` returns,
    /// such as a response that depends on the request's body or headers.
    public func answer(_ path: String, method: HTTPMethod? = nil, _ respond: @escaping @Sendable (ReceivedRequest) async -> HTTPResponse) {
        add(CannedResponse(method: method, paths: .exactly(path), respond: respond))
    }

    /// Answers every request whose path starts with `prefix` with whatever `respond` returns,
    /// ahead of the fallback and of earlier canned responses.
    package func answer(under prefix: String, _ respond: @escaping @Sendable (ReceivedRequest) async -> HTTPResponse) {
        add(CannedResponse(method: nil, paths: .under(prefix), respond: respond))
    }

    /// Answers every request whose path starts with `prefix` with `status`, `headers` and `body` as given.
    package func answer(under prefix: String, status: HTTPStatus, headers: HTTPHeaders = [:], body: String) {
        let response = HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
        answer(under: prefix) { _ in response }
    }

    /// Answers every request whose path starts with `prefix` with an empty 200 only after `delay`
    /// (or when the stub shuts down): an upstream slower than the gateway's timeouts.
    package func answer(under prefix: String, after delay: Duration) {
        answer(under: prefix) { _ in
            try? await Task.sleep(for: delay)
            return HTTPResponse(status: .ok)
        }
    }

    /// Adds `headers` to the fallback's answers for paths starting with `prefix` (such as `Cache-Control`).
    package func addHeaders(under prefix: String, _ headers: HTTPHeaders) {
        recorder.state.withLock { $0.addedHeaders.append((prefix, headers)) }
    }

    /// A stub that shuts down is an upstream gone at once: its idle connections close without
    /// waiting for a last request.
    private static let timeouts = ServerTimeouts(lastRequest: .zero)

    /// Every request received so far, in arrival order.
    public var received: [ReceivedRequest] { recorder.state.withLock { $0.received } }

    /// Stops serving; nothing to stop for a stub answered in process.
    public func shutdown() {
        server?.shutdown()
    }

    /// The transport through which a gateway in the same process calls this stub, whichever way
    /// it serves: the request as the stub would have read it off a socket, the answer as a client
    /// would have read it (a streamed body passed on when the call streams, else read whole up to
    /// the call's limit).
    package var transport: any Transport {
        ClosureTransport { [responder] request throws(UpstreamError) in
            var headers = request.headers
            if !headers.contains("Host") { headers.add("Host", request.origin.hostHeader) }
            var body = request.body ?? []
            if let stream = request.bodyStream {
                do throws(HTTPBodyError) { body = try await stream.collect(upTo: Int.max) } catch { throw .requestBodyFailed(error) }
            }
            var answer = await responder.respond(to: HTTPRequest(method: request.method, target: request.target, headers: headers, body: body))
            if request.method == .head { answer.bodyStream = nil; answer.body = [] }
            if let stream = answer.bodyStream, request.streamsResponse {
                return Response(HTTPResponse(status: answer.status, headers: answer.headers, bodyStream: stream))
            }
            if let stream = answer.bodyStream {
                do throws(HTTPBodyError) {
                    answer.body = try await stream.collect(upTo: request.maximumResponseBytes)
                } catch .tooLarge(let limit) {
                    throw .bodyTooLarge(limit: limit)
                } catch {
                    throw .invalidResponse(reason: "the stub's body failed: \(error)")
                }
            }
            guard answer.body.count <= request.maximumResponseBytes else { throw .bodyTooLarge(limit: request.maximumResponseBytes) }
            return Response(status: answer.status, headers: answer.headers, body: answer.body)
        }
    }

    private func add(_ response: CannedResponse) {
        recorder.state.withLock { $0.responses.append(response) }
    }

    private struct Responder: HTTPResponder {
        let recorder: Recorder
        let fallback: (any HTTPResponder)?

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            let received = ReceivedRequest(
                method: request.method.rawValue, target: request.target, path: request.path, query: request.query, headers: request.headers,
                body: request.body)
            let (respond, addedHeaders) = recorder.state.withLock { state in
                state.received.append(received)
                return (
                    state.responses.last { $0.paths.matches(request.path) && ($0.method == nil || $0.method == request.method) }?.respond,
                    state.addedHeaders.filter { request.path.hasPrefix($0.prefix) }.flatMap(\.headers))
            }
            if let respond { return await respond(received) }
            guard let fallback else {
                return .problem(.notFound, detail: "The stub has no response for this path.", instance: request.path)
            }
            var response = await fallback.respond(to: request)
            for field in addedHeaders { response.headers.add(field.name, field.value) }
            return response
        }
    }
}
