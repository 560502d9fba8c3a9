import Gateway
import HTTPBasics
import HTTPClientCore

/// A team's gateway running in the test's process on 127.0.0.1 at a free port, configured from
/// an environment as the real command is, and a client that sends it requests over loopback.
///
/// `withGateway(catalog:environment:_:)` starts one for the length of a closure and stops it
/// however the closure ends; start one yourself when its life does not fit a closure:
///
/// ```swift
/// let gateway = try GatewayUnderTest(catalog: catalog, environment: ["UPSTREAM_WEATHER_URL": weather.baseURL])
/// let response = try await gateway.get("/v1/forecast/oslo")
/// #expect(response.status == 200)
/// #expect(response.text == #"{"city":"oslo",…,"degraded":[]}"#)
/// await gateway.stop()
/// ```
public final class GatewayUnderTest: Sendable {
    private let gateway: InProcessGateway
    private let client = HTTPClient()

    /// Starts the gateway; `HOST` and `PORT` are set to 127.0.0.1 and 0, and no logs are written.
    ///
    /// - Throws: `GatewayStartupError` for a catalog or configuration mistake, with the line the
    ///   command would print.
    public convenience init(catalog: GatewayCatalog, environment: [String: String] = [:]) throws {
        try self.init(catalog: catalog, environment: environment, logDescriptor: nil)
    }

    /// Starts the gateway writing its access and event log lines to `logDescriptor` (such as a
    /// `LogCapture`'s), which must stay open until `stop()` returns; none are written when nil.
    package init(catalog: GatewayCatalog, environment: [String: String], logDescriptor: Int32?) throws {
        let environment = environment.merging(["HOST": "127.0.0.1", "PORT": "0"]) { _, fixed in fixed }
        gateway = try InProcessGateway(catalog: catalog, environment: environment, logDescriptor: logDescriptor)
    }

    /// The port the gateway listens on.
    public var port: Int { gateway.port }

    /// The gateway being served, for our own tests to look inside (its upstreams, status and routes).
    package var served: Gateway { gateway.gateway }

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
        let request = HTTPClientRequest(
            method: method, host: "127.0.0.1", port: gateway.port, target: target, headers: headers, body: Array((body ?? "").utf8))
        let response = try await client.send(request, timeout: .seconds(30), maximumResponseBytes: 16 << 20)
        return TestResponse(status: response.status.code, headers: response.headers, body: response.body)
    }

    /// Closes the client's connections and drains the gateway.
    public func stop() async {
        client.shutdown()
        await gateway.stop()
    }
}
