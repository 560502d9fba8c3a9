import Foundation
import Testing

@testable import Gateway

@Suite("OTLP trace encoding")
struct OTLPTraceEncodingTests {
    static let source = OTLPTraceEncoding.Source(
        resourceAttributes: [SpanAttribute("service.name", "gateway")], scopeName: "swift-bff-gateway", scopeVersion: "1.0")

    static let span = Span(
        traceID: (0x4bf9_2f35_77b3_4da6, 0xa3ce_929d_0e0e_4736), spanID: 0x00f0_67aa_0ba9_02b7, parentSpanID: 0xb7ad_6b71_6920_3331,
        flags: 1, parentIsRemote: true, name: "GET /v1/people/{id}", kind: .client,
        startNanoseconds: 1_764_368_000_000_000_000, endNanoseconds: 1_764_368_000_012_345_678,
        attributes: [
            SpanAttribute("http.response.status_code", 404),
            SpanAttribute("url.full", "https://api.example/x?key=REDACTED" + String(repeating: "y", count: 120)),
            SpanAttribute("gateway.degraded", true), SpanAttribute("ratio", 0.25), SpanAttribute("neg", -3),
        ],
        events: [SpanEvent(name: "token.refresh", timeNanoseconds: 1_764_368_000_000_000_500, attributes: [SpanAttribute("empty", "")])],
        status: .error(description: "404"))

    @Test("a request is byte for byte what the official opentelemetry-proto package serialises")
    func matchesOfficialEncoding() {
        // Made by opentelemetry-proto 1.45.2 (PyPI) from the same values: ExportTraceServiceRequest.SerializeToString().
        let official =
            "0ad1030a1b0a190a0c736572766963652e6e616d6512090a076761746577617912b1030a180a1173776966742d6266662d676174657761791203312e30"
            + "1294030a104bf92f3577b34da6a3ce929d0e0e4736120800f067aa0ba902b72208b7ad6b71692033312a13474554202f76312f70656f706c652f7b69"
            + "647d30033900001115594b7c18414e61cd15594b7c184a200a19687474702e726573706f6e73652e7374617475735f636f646512031894034aaa010a"
            + "0875726c2e66756c6c129d010a9a0168747470733a2f2f6170692e6578616d706c652f783f6b65793d524544414354454479"
            + String(repeating: "79", count: 119)
            + "4a160a10676174657761792e6465677261646564120210014a120a05726174696f120921000000000000d03f4a120a036e6567120b18fdffffffff"
            + "ffffffff015a2509f4011115594b7c18120d746f6b656e2e726566726573681a0b0a05656d70747912020a007a0712033430341802850101030000"
        let encoded = OTLPTraceEncoding.exportRequest([Self.span], from: Self.source)
        #expect(hex(encoded) == official)
    }

    @Test("a root span has no parent id, no status when unset, and its remoteness known as local")
    func rootSpan() {
        var span = Self.span
        span.parentSpanID = 0
        span.parentIsRemote = false
        span.status = .unset
        span.attributes = []
        span.events = []
        var writer = ProtobufWriter()
        writer.span(span)
        // trace_id, span_id, name, kind, start and end; no parent_span_id (22), no status (7a);
        // flags: sampled, remoteness known, not remote.
        #expect(
            hex(writer.bytes)
                == "0a104bf92f3577b34da6a3ce929d0e0e4736120800f067aa0ba902b72a13474554202f76312f70656f706c652f7b69647d3003"
                + "3900001115594b7c18414e61cd15594b7c18850101010000")
    }

    @Test("embedded messages of every length get the right length prefix", arguments: [0, 1, 127, 128, 16_383, 16_384, 70_000])
    func lengthPrefix(length: Int) {
        var writer = ProtobufWriter()
        writer.message(field: 1) { $0.string(field: 1, String(repeating: "a", count: length)) }
        var reader = writer.bytes[...]
        #expect(reader.popFirst() == 0x0A)
        let outer = readVarint(&reader)
        #expect(outer == UInt64(reader.count))
        if length > 0 {
            #expect(reader.popFirst() == 0x0A)
            #expect(readVarint(&reader) == UInt64(length))
            #expect(reader.count == length)
        }
    }

    @Test("many spans share one resource and one scope")
    func manySpans() {
        let spans = (1...3).map { index in
            var span = Self.span
            span.spanID = UInt64(index)
            return span
        }
        let encoded = hex(OTLPTraceEncoding.exportRequest(spans, from: Self.source))
        #expect(encoded.components(separatedBy: "0c736572766963652e6e616d65").count == 2)  // "service.name" once
        #expect(encoded.components(separatedBy: "120800f067aa0ba902b7").count == 1)
        for index in 1...3 { #expect(encoded.contains("1208" + String(repeating: "0", count: 14) + "0\(index)")) }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private func readVarint(_ bytes: inout ArraySlice<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = bytes.popFirst() {
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return value
    }
}
