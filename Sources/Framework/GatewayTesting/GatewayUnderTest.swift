import Gateway
import HTTP1Client
import HTTP1Server
import HTTPBasics
import NetworkRuntime

/// A team's gateway running in the test's process, configured from an environment as the real
/// command is, and a way to send it requests: over loopback to a port it listens on, or handed to
/// it directly with its upstreams answered by in-process stubs, no socket on either side.
///
/// `withGateway(catalog:upstreams:environment:log:_:)` and `withGateway(catalog:environment:log:_:)`
/// start one for the length of a closure and stop it however the closure ends; start one yourself
/// when its life does not fit a closure:
///
/// ```swift
/// let weather = StubUpstream.inProcess()
/// weather.answer("/current/oslo", json: #"{"city":"oslo","temperature":3.5,"conditions":"snow"}"#)
/// let gateway = try GatewayUnderTest(catalog: catalog, upstreams: ["weather": weather])
/// let response = try await gateway.get("/v1/forecast/oslo")
/// #expect(response.status == 200)
/// await gateway.stop()
/// ```
public final class GatewayUnderTest: Sendable {
    private enum Serving: Sendable {
        /// On 127.0.0.1, running in `serving`, asked through a pooled client.
        case loopback(GatewayService, serving: Task<Void, Never>, HTTPClient)
        /// Handed each request in process.
        case inProcess(SocketlessGateway)
    }

    private let serving: Serving

    /// Starts the gateway on 127.0.0.1 at a free port; `HOST` and `PORT` are set so. Its upstreams
    /// are wherever `environment` points them (a socket `StubUpstream`'s `baseURL` in
    /// `UPSTREAM_<NAME>_URL`). Its log lines go to `log` when given, else nowhere; keep `log` open
    /// until `stop()` returns.
    ///
    /// - Throws: `GatewayStartupError` for a catalog or configuration mistake, with the line the
    ///   command would print.
    public init(catalog: GatewayCatalog, environment: [String: String] = [:], log: LogCapture? = nil) throws {
        let environment = environment.merging(["HOST": "127.0.0.1", "PORT": "0"]) { _, fixed in fixed }
        let service = try GatewayService(catalog: catalog, environment: environment, logDescriptor: log?.descriptor)
        serving = .loopback(service, serving: Task { await service.run() }, HTTPClient())
    }

    /// Starts the gateway without a socket: requests are handed to it in process and each upstream
    /// named in `upstreams` is answered by its stub in process (an upstream not named there fails
    /// as a refused connection). `environment` configures the rest, as for the command; its log
    /// lines go to `log` when given, else nowhere. Such gateways share nothing, so tests using
    /// them may run in parallel.
    ///
    /// The answers are the gateway's own, without what a socket's server adds: no `Date`,
    /// `Content-Length` or `Connection` fields, and no limits on the request's head.
    ///
    /// - Throws: `GatewayStartupError` for a catalog or configuration mistake, with the line the
    ///   command would print, or for a name in `upstreams` that is no upstream's.
    public init(catalog: GatewayCatalog, upstreams: [String: StubUpstream], environment: [String: String] = [:], log: LogCapture? = nil) throws {
        serving = .inProcess(
            try SocketlessGateway(
                catalog: catalog, environment: environment, transports: upstreams.mapValues(\.transport), logDescriptor: log?.descriptor))
    }

    /// The port the gateway listens on; 0 for one without a socket.
    public var port: Int {
        switch serving {
        case .loopback(let gateway, _, _): gateway.port
        case .inProcess: 0
        }
    }

    /// The gateway being served, for our own tests to look inside (its upstreams, status and routes).
    package var served: Gateway {
        switch serving {
        case .loopback(let gateway, _, _): gateway.gateway
        case .inProcess(let gateway): gateway.gateway
        }
    }

    /// Sends `GET target` (a path with its query) and returns the whole answer.
    public func get(_ target: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send(.get, target, headers: headers)
    }

    /// Sends a request with `body` (JSON unless the headers say otherwise) and returns the whole answer.
    public func send(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: String? = nil) async throws -> TestResponse {
        var headers = headers
        if body != nil, !headers.contains("Content-Type") {
            headers.add("Content-Type", "application/json")
        }
        let bytes = Array((body ?? "").utf8)
        switch serving {
        case .loopback(let gateway, _, let client):
            let request = HTTPClientRequest(method: method, host: "127.0.0.1", port: gateway.port, target: target, headers: headers, body: bytes)
            let response = try await client.send(request, timeout: .seconds(30), maximumResponseBytes: Self.maximumResponseBytes)
            return TestResponse(status: response.status.code, headers: response.headers, body: response.body)
        case .inProcess(let gateway):
            if !headers.contains("Host") { headers.add("Host", "127.0.0.1") }
            var request = HTTPRequest(method: method, target: target, headers: headers, body: bytes)
            request.clientAddress = Self.loopback
            let response = await gateway.respond(to: request)
            var answer = response.body
            if let stream = response.bodyStream {
                answer = method == .head ? [] : try await stream.collect(upTo: Self.maximumResponseBytes)
            }
            return TestResponse(status: response.status.code, headers: response.headers, body: method == .head ? [] : answer)
        }
    }

    /// Closes the client's connections and drains the gateway.
    public func stop() async {
        switch serving {
        case .loopback(let gateway, let serving, let client):
            client.shutdown()
            gateway.stop()
            await serving.value
        case .inProcess(let gateway):
            await gateway.stop()
        }
    }

    /// The address an in-process request comes from, as a client on loopback would.
    private static let loopback = IPAddress("127.0.0.1")
    private static let maximumResponseBytes = 16 << 20
}
