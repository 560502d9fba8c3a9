import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

@Suite("Request ids and trace context")
struct RequestIdentityTests {
    @Test("a sane X-Request-ID is echoed", arguments: ["bench-check-v1-menu", "a", "7f3c:1/2+x=y~z@h", String(repeating: "x", count: 128)])
    func echoed(id: String) {
        #expect(RequestID.resolve(id) == id)
    }

    @Test(
        "anything else is replaced by a fresh id",
        arguments: [nil, "", "has space", "quote\"", "new\nline", "ümlaut", String(repeating: "x", count: 129)] as [String?])
    func replaced(id: String?) {
        let resolved = RequestID.resolve(id)
        #expect(resolved != id)
        #expect(resolved.utf8.count == 32)
        #expect(RequestID.isSane(resolved))
    }

    @Test("generated ids differ")
    func unique() {
        #expect(RequestID.generate() != RequestID.generate())
    }

    @Test("identifiers are written as 16 lower-case hexadecimal digits, most significant first", arguments: [
        0, 1, 0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 0xa0b1_c2d3_e4f5_0919, UInt64.max, 0x8000_0000_0000_000a,
    ] as [UInt64])
    func hexadecimal(value: UInt64) {
        var bytes: [UInt8] = Array("<0123456789abcdef>".utf8)
        bytes.withUnsafeMutableBufferPointer { IdentifierSource.writeHex(value, into: $0, at: 1) }
        let expected = String(repeating: "0", count: 16 - String(value, radix: 16).count) + String(value, radix: 16)
        #expect(String(decoding: bytes, as: UTF8.self) == "<" + expected + ">")
    }

    @Test("a valid traceparent is read: its trace id and flags", arguments: [
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
    ])
    func validTraceParent(header: String) throws {
        let parsed = try #require(TraceParent.parse(header))
        #expect(parsed.traceID.high == 0x4bf9_2f35_77b3_4da6 && parsed.traceID.low == 0xa3ce_929d_0e0e_4736)
        #expect(parsed.flags == 0x01)
    }

    @Test("an invalid traceparent is dropped", arguments: [
        "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nX: y",
    ])
    func invalidTraceParent(header: String) {
        #expect(TraceParent.parse(header) == nil)
    }

    @Test("a valid traceparent continues the client's trace: its id, the sampled flag alone, version 00, a new parent id per call")
    func continuedTrace() throws {
        let trace = TraceContext(of: ["traceparent": "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-ff-extra"])
        let first = trace.traceParentForCall(), second = trace.traceParentForCall()
        #expect(first.hasPrefix("00-4bf92f3577b34da6a3ce929d0e0e4736-") && first.hasSuffix("-01") && first.utf8.count == 55)
        #expect(first != second && TraceParent.parse(first) != nil && TraceParent.parse(second) != nil)
        #expect(!first.contains("00f067aa0ba902b7"))
        let unsampled = TraceContext(of: ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"])
        #expect(unsampled.traceParentForCall().hasSuffix("-00"))
        var logged: [UInt8] = []
        trace.appendTraceID(to: &logged)
        #expect(String(decoding: logged, as: UTF8.self) == "4bf92f3577b34da6a3ce929d0e0e4736")
    }

    @Test("without exactly one valid traceparent a new sampled trace starts, without the client's tracestate", arguments: [
        [:], ["tracestate": "vendor=x"], ["traceparent": "00-zz", "tracestate": "vendor=x"],
        ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
         "Traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"],
    ] as [HTTPHeaders])
    func startedTrace(headers: HTTPHeaders) throws {
        let trace = TraceContext(of: headers)
        #expect(trace.traceState == nil)
        #expect(trace.flags == TraceParent.sampled)
        let header = trace.traceParentForCall()
        let parsed = try #require(TraceParent.parse(header))
        #expect(header.hasPrefix("00-") && header.hasSuffix("-01"))
        #expect(parsed.traceID.high != 0x4bf9_2f35_77b3_4da6 && parsed.traceID.high != 0x0af7_6519_16cd_43dd)
        #expect(TraceContext(of: headers).traceID != trace.traceID)
    }

    @Test("the client's tracestate passes unchanged when within the basic limits, its fields joined into one list")
    func traceState() {
        let parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        #expect(TraceContext(of: ["traceparent": parent, "tracestate": "congo=t61rcWkgMzE, rojo=00f067aa0ba902b7"]).traceState
            == "congo=t61rcWkgMzE, rojo=00f067aa0ba902b7")
        #expect(TraceContext(of: ["traceparent": parent, "tracestate": "a=1", "TraceState": "b=2"]).traceState == "a=1,b=2")
        let longest = "k=" + String(repeating: "v", count: 510)
        #expect(TraceContext(of: ["traceparent": parent, "tracestate": longest]).traceState == longest)
        for invalid in [longest + "v", "a=1\u{7}", "a=\tb", "", "a=ü"] {
            #expect(TraceContext(of: ["traceparent": parent, "tracestate": invalid]).traceState == nil)
        }
    }
}
