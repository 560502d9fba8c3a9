import HTTP1Server
import Synchronization

/// Answers gzipped for clients, and their bytes before and after, for `/metrics`.
final class CompressionMetrics: Sendable {
    private let responses = Atomic<Int>(0)
    private let identityBytes = Atomic<Int>(0)
    private let encodedBytes = Atomic<Int>(0)

    func record(_ outcome: ResponseCompression.Outcome) {
        responses.add(1, ordering: .relaxed)
        identityBytes.add(outcome.identityBytes, ordering: .relaxed)
        encodedBytes.add(outcome.encodedBytes, ordering: .relaxed)
    }

    func render(into text: inout String) {
        PrometheusText.header("gateway_compressed_responses_total", type: "counter", help: "Answers sent gzipped.", into: &text)
        text += "gateway_compressed_responses_total \(responses.load(ordering: .relaxed))\n"
        PrometheusText.header(
            "gateway_compression_input_bytes_total", type: "counter", help: "Body bytes of the answers sent gzipped, before compression.",
            into: &text)
        text += "gateway_compression_input_bytes_total \(identityBytes.load(ordering: .relaxed))\n"
        PrometheusText.header(
            "gateway_compression_output_bytes_total", type: "counter", help: "Body bytes of the answers sent gzipped, as sent.", into: &text)
        text += "gateway_compression_output_bytes_total \(encodedBytes.load(ordering: .relaxed))\n"
    }
}
