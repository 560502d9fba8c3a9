import NetworkRuntime
import Synchronization

/// The WebSockets open through proxy routes, held under their limit, and what they moved, for
/// `/metrics`.
final class WebSocketMetrics: Sendable {
    /// WebSockets open at once; more are refused.
    let maximumOpen: Int
    private let open = Atomic<Int>(0)
    private let opened = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)
    private let bytesToUpstream = Atomic<Int>(0)
    private let bytesToClients = Atomic<Int>(0)

    init(maximumOpen: Int) {
        self.maximumOpen = maximumOpen
    }

    /// One open WebSocket's place under the limit, given back when the last reference to it goes,
    /// whichever path the WebSocket ended by (relayed, or its `101` never written).
    final class Place: Sendable {
        private let metrics: WebSocketMetrics

        fileprivate init(_ metrics: WebSocketMetrics) {
            self.metrics = metrics
        }

        deinit {
            metrics.open.subtract(1, ordering: .relaxed)
        }
    }

    /// A place for one more WebSocket, or nil (counted as refused) when `maximumOpen` are open.
    func reservePlace() -> Place? {
        var current = open.load(ordering: .relaxed)
        while current < maximumOpen {
            let (exchanged, original) = open.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged {
                opened.add(1, ordering: .relaxed)
                return Place(self)
            }
            current = original
        }
        refused.add(1, ordering: .relaxed)
        return nil
    }

    /// Counts bytes as the relay moves them: `toUpstream` for the client's, else the upstream's.
    func moved(_ count: Int, toUpstream: Bool) {
        if toUpstream {
            bytesToUpstream.add(count, ordering: .relaxed)
        } else {
            bytesToClients.add(count, ordering: .relaxed)
        }
    }

    var openCount: Int { open.load(ordering: .relaxed) }

    func render(into text: inout String) {
        PrometheusText.header("gateway_websockets_open", type: "gauge", help: "WebSockets open through proxy routes now.", into: &text)
        text += "gateway_websockets_open \(openCount)\n"
        PrometheusText.header(
            "gateway_websockets_total", type: "counter", help: "WebSockets opened through proxy routes since start.", into: &text)
        text += "gateway_websockets_total \(opened.load(ordering: .relaxed))\n"
        PrometheusText.header(
            "gateway_websockets_refused_total", type: "counter", help: "WebSocket requests refused because WEBSOCKET_MAX_CONNECTIONS were open.",
            into: &text)
        text += "gateway_websockets_refused_total \(refused.load(ordering: .relaxed))\n"
        PrometheusText.header(
            "gateway_websocket_bytes_total", type: "counter",
            help: "Bytes relayed through WebSockets, by direction: to the upstream (from clients) or to clients.", into: &text)
        text += "gateway_websocket_bytes_total{direction=\"upstream\"} \(bytesToUpstream.load(ordering: .relaxed))\n"
        text += "gateway_websocket_bytes_total{direction=\"client\"} \(bytesToClients.load(ordering: .relaxed))\n"
    }
}
