/// All the gateway's metrics, rendered as Prometheus text for `GET /metrics`.
struct GatewayMetrics: Sendable {
    /// Every route's metrics, in the order they are rendered; the last is for requests no route matched.
    let routes: [RouteMetrics]
    let upstreams: [UpstreamMetrics]
    /// Open client connections, requests being handled and requests refused before routing,
    /// read from the server when rendering.
    let gauges: @Sendable () -> (openConnections: Int, inFlightRequests: Int, rejectedRequests: Int)

    func render() -> String {
        var text = ""
        text.reserveCapacity(16 * 1024)
        PrometheusText.header("gateway_requests_total", type: "counter", help: "Requests answered, by route and status.", into: &text)
        for route in routes { route.renderRequests(into: &text) }
        PrometheusText.header(
            "gateway_request_duration_seconds", type: "histogram", help: "Time to answer a request, by route.", into: &text)
        for route in routes { route.renderLatency(into: &text) }
        PrometheusText.header(
            "gateway_upstream_calls_total", type: "counter", help: "Calls to upstreams, by upstream and outcome.", into: &text)
        for upstream in upstreams { upstream.renderCalls(into: &text) }
        PrometheusText.header(
            "gateway_upstream_call_duration_seconds", type: "histogram", help: "Duration of upstream calls, by upstream.", into: &text)
        for upstream in upstreams { upstream.renderLatency(into: &text) }
        let (openConnections, inFlightRequests, rejectedRequests) = gauges()
        PrometheusText.header("gateway_open_connections", type: "gauge", help: "Client connections open now.", into: &text)
        text += "gateway_open_connections \(openConnections)\n"
        PrometheusText.header("gateway_in_flight_requests", type: "gauge", help: "Requests being handled now.", into: &text)
        text += "gateway_in_flight_requests \(inFlightRequests)\n"
        PrometheusText.header(
            "gateway_rejected_requests_total", type: "counter",
            help: "Requests refused before routing: malformed, too large, bad Host, unsupported version.", into: &text)
        text += "gateway_rejected_requests_total \(rejectedRequests)\n"
        return text
    }
}
