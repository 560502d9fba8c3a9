import FoundationTransport
import HTTP1ClientTransport
import HTTPBasics
import Testing
import UpstreamKit

/// One behaviour, every transport: the gateway must not care which one serves an upstream.
@Suite("Transport conformance")
struct TransportConformanceTests {
    func request(
        _ target: String,
        port: Int,
        method: HTTPMethod = .get,
        timeout: Duration = .seconds(5),
        maximumResponseBytes: Int = 1 << 20
    ) -> TransportRequest {
        TransportRequest(
            method: method, origin: Origin(scheme: "http", host: "127.0.0.1", port: port), target: target,
            timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    @Test(arguments: TransportKind.allCases)
    func returnsStatusHeadersAndBody(kind: TransportKind) async throws {
        let transport = kind.makeTransport()
        try await TransportStub.serve { port in
            let response = try await transport.send(request("/json", port: port))
            #expect(response.status == .ok)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["X-Upstream"] == "stub")
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"name":"Luke Skywalker"}"#)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func returnsAnErrorStatusAsAResponse(kind: TransportKind) async throws {
        let transport = kind.makeTransport()
        try await TransportStub.serve { port in
            let response = try await transport.send(request("/missing", port: port))
            #expect(response.status == .notFound)
            #expect(response.body == Array("not here".utf8))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func sendsMethodHeadersAndBody(kind: TransportKind) async throws {
        let transport = kind.makeTransport()
        try await TransportStub.serve { port in
            var echo = request("/echo", port: port, method: .post)
            echo.headers = ["X-Test": "yes", "Content-Type": "application/json"]
            echo.body = Array(#"{"a":1}"#.utf8)
            let response = try await transport.send(echo)
            #expect(response.status == .created)
            #expect(response.headers["X-Method"] == "POST")
            #expect(response.headers["X-Test"] == "yes")
            #expect(response.body == Array(#"{"a":1}"#.utf8))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func keepsRepeatedSetCookieFields(kind: TransportKind) async throws {
        let transport = kind.makeTransport()
        try await TransportStub.serve { port in
            let response = try await transport.send(request("/cookies", port: port))
            #expect(response.headers.values(named: "set-cookie").sorted() == ["a=1", "b=2"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func readsAChunkedBody(kind: TransportKind) async throws {
        let transport = kind.makeTransport()
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        try await RawUpstream.serve(chunked) { port in
            let response = try await transport.send(request("/chunked", port: port))
            #expect(response.body == Array("hello world".utf8))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func timesOut(kind: TransportKind) async throws {
        let transport = kind.makeTransport()
        try await TransportStub.serve { port in
            let started = ContinuousClock.now
            await #expect(throws: UpstreamError.timedOut) {
                try await transport.send(request("/slow", port: port, timeout: .milliseconds(300)))
            }
            #expect(ContinuousClock.now - started < .seconds(3))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func refusesABodyOverTheLimit(kind: TransportKind) async throws {
        let transport = kind.makeTransport()
        try await TransportStub.serve { port in
            await #expect(throws: UpstreamError.bodyTooLarge(limit: 100_000)) {
                try await transport.send(request("/large", port: port, maximumResponseBytes: 100_000))
            }
            let response = try await transport.send(
                request("/large", port: port, maximumResponseBytes: TransportStub.largeBodyBytes))
            #expect(response.body.count == TransportStub.largeBodyBytes)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func reportsARefusedConnection(kind: TransportKind) async {
        let transport = kind.makeTransport()
        await #expect {
            // Nothing listens on port 1, and unlike a port just released by a test it is never
            // handed out again as an ephemeral port to another test's server.
            try await transport.send(request("/json", port: 1))
        } throws: { error in
            if case .connectionFailed = error as? UpstreamError { true } else { false }
        }
    }

    @Test func onlyThePooledTransportEnforcesTimeoutsItself() {
        #expect(PooledTransport().enforcesTimeout)
        #expect(!URLSessionTransport().enforcesTimeout)
    }

    @Test func thePooledTransportRefusesHTTPSWithoutATLSContext() async {
        var secure = request("/json", port: 443)
        secure.origin = Origin(scheme: "https", host: "127.0.0.1", port: 443)
        await #expect {
            try await PooledTransport().send(secure)
        } throws: { error in
            if case .invalidRequest = error as? UpstreamError { true } else { false }
        }
    }
}
