import HTTPBasics
import HTTPServerCore

/// The routes that operate the gateway rather than combine upstreams: liveness, readiness,
/// metrics, the endpoint index and the OpenAPI document.
enum OperationRoutes {
    /// The operation routes in table order, documented and served; `GET /` and OpenAPI list the
    /// `table` and then the `proxies`.
    static func routes(
        status: ServerStatus, upstreams: UpstreamRegistry, redis: RedisSharing?, metrics: GatewayMetrics, documenting table: [RouteDocumentation],
        proxies: [ProxyRoute]
    ) -> [GatewayRoute] {
        [
            GatewayRoute(documentation: health, handler: healthHandler()),
            GatewayRoute(documentation: readiness, handler: readinessHandler(status: status, upstreams: upstreams, redis: redis)),
            GatewayRoute(documentation: metricsDocumentation, handler: metricsHandler(metrics)),
            GatewayRoute(documentation: index, handler: indexHandler(documenting: table, proxies: proxies)),
            GatewayRoute(documentation: openAPI, handler: openAPIHandler(documenting: table, proxies: proxies)),
        ]
    }

    /// The documentation of every operation route, in table order.
    static let documentation = [health, readiness, metricsDocumentation, index, openAPI]

    private static let healthBody = Array(#"{"status":"ok"}"#.utf8)
    private static let readyBody = Array(#"{"status":"ready"}"#.utf8)

    static let health = RouteDocumentation(
        method: .get, path: "/healthz", summary: "Liveness: the process serves requests", parameters: [],
        responses: [DocumentedResponse(status: 200, description: "Alive", example: healthBody)])

    static let readiness = RouteDocumentation(
        method: .get, path: "/readyz", summary: "Readiness: listening, not shutting down, no upstream circuit open",
        parameters: [],
        responses: [DocumentedResponse(status: 200, description: "Ready", example: readyBody), .problem(503, "Not ready; the detail says why")])

    static let metricsDocumentation = RouteDocumentation(
        method: .get, path: "/metrics", summary: "Prometheus metrics", parameters: [],
        responses: [DocumentedResponse(status: 200, description: "Prometheus text format 0.0.4", contentType: PrometheusText.contentType)])

    static let index = RouteDocumentation(
        method: .get, path: "/", summary: "Lists the endpoints", parameters: [],
        responses: [DocumentedResponse(status: 200, description: "Endpoint list")])

    static let openAPI = RouteDocumentation(
        method: .get, path: "/openapi.json", summary: "This API's OpenAPI 3.1 description", parameters: [],
        responses: [DocumentedResponse(status: 200, description: "OpenAPI document")])

    private static func healthHandler() -> Router.Handler {
        { _, _ in .json(healthBody) }
    }

    /// Ready while listening, before shutdown, and with no upstream's circuit open. Redis's state
    /// is a detail of a ready answer, never a reason to fail: a replica without it still serves.
    private static func readinessHandler(status: ServerStatus, upstreams: UpstreamRegistry, redis: RedisSharing?) -> Router.Handler {
        { request, _ in
            let detail: String?
            if status.isShuttingDown {
                detail = "the gateway is shutting down"
            } else if !status.isListening {
                detail = "the gateway is not listening yet"
            } else if let open = upstreams.all.first(where: \.isCircuitOpen) {
                detail = "the circuit of upstream \(open.configuration.name) is open"
            } else {
                detail = nil
            }
            guard let detail else {
                guard let redis else { return .json(readyBody) }
                return .json(Array(#"{"status":"ready","redis":"\#(redis.state)"}"#.utf8))
            }
            return .problem(.serviceUnavailable, detail: detail, instance: request.path)
        }
    }

    private static func metricsHandler(_ metrics: GatewayMetrics) -> Router.Handler {
        { _, _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": PrometheusText.contentType], body: Array(metrics.render().utf8))
        }
    }

    /// `GET /`: every route with its summary, from the route table; a proxy route with method
    /// `ANY` (as AWS API Gateway names a route of every method) and its OpenAPI path.
    private static func indexHandler(documenting table: [RouteDocumentation], proxies: [ProxyRoute]) -> Router.Handler {
        let entries = table.map { entry($0.method.rawValue, $0.openAPIPath, $0.summary) } + proxies.map { entry("ANY", $0.openAPIPath, $0.summary) }
        let list: JSONValue = .object([
            ("name", "gateway"),
            ("openapi", "/openapi.json"),
            ("endpoints", .array(entries)),
        ])
        let body = list.encoded
        return { _, _ in .json(body) }
    }

    private static func entry(_ method: String, _ path: String, _ summary: String) -> JSONValue {
        .object([("method", .string(method)), ("path", .string(path)), ("summary", .string(summary))])
    }

    /// `GET /openapi.json`, generated once from the route table.
    private static func openAPIHandler(documenting table: [RouteDocumentation], proxies: [ProxyRoute]) -> Router.Handler {
        let body = OpenAPIDocument.generate(routes: table, proxies: proxies, title: "BFF gateway", version: "1.0.0").encoded
        return { _, _ in .json(body) }
    }
}
