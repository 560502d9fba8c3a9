import HTTP1Server
import HTTPBasics

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
        method: .get, path: "/readyz", summary: "Readiness: listening and not shutting down; open circuits and Redis's state are details",
        parameters: [],
        responses: [DocumentedResponse(status: 200, description: "Ready", example: readyBody), .problem(503, "Starting or shutting down; the detail says which")])

    static let metricsDocumentation = RouteDocumentation(
        method: .get, path: "/metrics", summary: "Prometheus metrics", parameters: [],
        responses: [DocumentedResponse(status: 200, description: "Prometheus text format 0.0.4", contentType: PrometheusText.contentType)])

    static let index = RouteDocumentation(
        method: .get, path: "/", summary: "Lists the endpoints", parameters: [],
        responses: [DocumentedResponse(status: 200, description: "Endpoint list")])

    static let openAPI = RouteDocumentation(
        method: .get, path: "/openapi.json", summary: "This API's OpenAPI 3.1 description", parameters: [],
        responses: [DocumentedResponse(status: 200, description: "OpenAPI document")])

    private static func healthHandler() -> Router<RequestScope>.Handler {
        { _, _, _ in .json(healthBody) }
    }

    /// Ready while listening and before shutdown: whether this replica can serve. An upstream's
    /// open circuit and Redis being down are details of a ready answer, never reasons to fail:
    /// every replica shares them, so failing readiness for them would take every replica out of
    /// its load balancer at once and help nobody (Kubernetes' guidance for readiness probes).
    private static func readinessHandler(status: ServerStatus, upstreams: UpstreamRegistry, redis: RedisSharing?) -> Router<RequestScope>.Handler {
        { request, _, _ in
            if status.isShuttingDown {
                return .problem(.serviceUnavailable, detail: "the gateway is shutting down", instance: request.path)
            }
            guard status.isListening else {
                return .problem(.serviceUnavailable, detail: "the gateway is not listening yet", instance: request.path)
            }
            return .json(readyBody(redis: redis?.state, openCircuits: upstreams.all.filter(\.isCircuitOpen).map(\.configuration.name)))
        }
    }

    /// `{"status":"ready"}`, with `"redis":"up"` or `"down"` when Redis is configured and
    /// `"open_circuits":[…]` naming the upstreams whose circuits refuse calls, when any do.
    static func readyBody(redis: String?, openCircuits: [String]) -> [UInt8] {
        guard redis != nil || !openCircuits.isEmpty else { return readyBody }
        var members: [(String, JSONValue)] = [("status", "ready")]
        if let redis { members.append(("redis", .string(redis))) }
        if !openCircuits.isEmpty { members.append(("open_circuits", .array(openCircuits.map(JSONValue.string)))) }
        return JSONValue.object(members).encoded
    }

    private static func metricsHandler(_ metrics: GatewayMetrics) -> Router<RequestScope>.Handler {
        { _, _, _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": PrometheusText.contentType], body: Array(metrics.render().utf8))
        }
    }

    /// `GET /`: every route with its summary, from the route table; a proxy route with method
    /// `ANY` (as AWS API Gateway names a route of every method) and its OpenAPI path.
    private static func indexHandler(documenting table: [RouteDocumentation], proxies: [ProxyRoute]) -> Router<RequestScope>.Handler {
        let entries = table.map { entry($0.method.rawValue, $0.openAPIPath, $0.summary) } + proxies.map { entry("ANY", $0.openAPIPath, $0.summary) }
        let list: JSONValue = .object([
            ("name", "gateway"),
            ("openapi", "/openapi.json"),
            ("endpoints", .array(entries)),
        ])
        let body = list.encoded
        return { _, _, _ in .json(body) }
    }

    private static func entry(_ method: String, _ path: String, _ summary: String) -> JSONValue {
        .object([("method", .string(method)), ("path", .string(path)), ("summary", .string(summary))])
    }

    /// `GET /openapi.json`, generated once from the route table.
    private static func openAPIHandler(documenting table: [RouteDocumentation], proxies: [ProxyRoute]) -> Router<RequestScope>.Handler {
        let body = OpenAPIDocument.generate(routes: table, proxies: proxies, title: "BFF gateway", version: "1.0.0").encoded
        return { _, _, _ in .json(body) }
    }
}
