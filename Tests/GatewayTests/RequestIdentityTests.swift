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

    @Test("a valid traceparent passes", arguments: [
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-extra",
    ])
    func validTraceParent(header: String) {
        #expect(TraceParent.validated(header) == header)
    }

    @Test("an invalid traceparent is dropped", arguments: [
        "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nX: y",
    ])
    func invalidTraceParent(header: String) {
        #expect(TraceParent.validated(header) == nil)
    }
}
