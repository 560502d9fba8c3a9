import GatewayTesting
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway

/// Requests refused before routing, seen from outside through real sockets: their log lines,
/// their count in /metrics, and the rate limit that keeps a flood from filling a disk.
@Suite("Rejected-request log")
struct RejectedRequestLogTests {
    @Test("a refused request leaves one JSON line: escaped, cut target, peer, no header value; /metrics counts it")
    func lineOfARefusedRequest() async throws {
        try await withGateway { port, capture in
            try await Self.expectLinesOfRefusals(port: port, capture: capture)
        }
    }

    private static func expectLinesOfRefusals(port: Int, capture: LogCapture) async throws {
        let target = "/v1/menu\u{1}\"" + String(repeating: "x", count: 80)
        let refused = [
            "GET \(target)?token=s3cret HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer s3cret\r\n\r\n",
            "GET /v1/menu HTTP/1.1\r\nHost: exa mple.com\r\nCookie: session=s3cret\r\n\r\n",
        ]
        for request in refused {
            let response = try await RawHTTP.exchange(request, port: port)
            #expect(RawHTTP.status(of: response) == 400)
            #expect(response.contains("application/problem+json"))
        }
        let lines = await capture.lines { $0.count(where: { $0.contains(#""message":"request rejected""#) }) == 2 }
        let rejected = lines.filter { $0.contains(#""message":"request rejected""#) }
        try #require(rejected.count == 2)
        let cutTarget = #"/v1/menu\u0001\""# + String(repeating: "x", count: 54)
        #expect(rejected[0].contains(#""status":400,"reason":"invalid request target","method":"GET","target":"\#(cutTarget)","peer":"127.0.0.1:"#))
        #expect(rejected[1].contains(#""status":400,"reason":"invalid Host","method":"GET","target":"/v1/menu","peer":"127.0.0.1:"#))
        #expect(rejected.allSatisfy { JSONValue(parsing: Array($0.utf8)) != nil })
        #expect(!lines.contains { $0.contains("s3cret") || $0.contains("mple") })

        let metrics = try await RawHTTP.exchange("GET /metrics HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", port: port)
        #expect(metrics.contains("gateway_rejected_requests_total 2\n"))
    }

    @Test("CONNECT gets 405 with Allow and the access log, not the rejected-request log, records it")
    func connect() async throws {
        try await withGateway { port, capture in
            let response = try await RawHTTP.exchange("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", port: port)
            #expect(RawHTTP.status(of: response) == 405)
            #expect(response.contains("\r\nAllow: GET, HEAD\r\n"))
            #expect(response.contains("\r\nContent-Type: application/problem+json\r\n"))
            let lines = await capture.lines { $0.contains { $0.contains(#""method":"CONNECT""#) } }
            #expect(lines.contains { $0.contains(#""method":"CONNECT","path":"example.com:443","route":"unmatched","status":405"#) })
            #expect(!lines.contains { $0.contains("request rejected") })
        }
    }

    @Test("a flood leaves at most the limit of lines per window and one summary of the rest")
    func flood() async throws {
        let capture = try LogCapture()
        defer { capture.close() }
        let output = LogOutput(descriptor: capture.descriptor, interval: .milliseconds(10))
        defer { output.close() }
        // A window far longer than the test, so the summary is the one written at shutdown.
        let log = RejectedRequestLog(level: .info, output: output, linesPerWindow: 3, window: .seconds(600))
        let server = try HTTPServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0), responder: Router<Void>(), rejectionLog: { log.record($0) })
        let running = Task { await server.run() }
        for index in 0..<12 {
            let response = try await RawHTTP.exchange("GET /\(index) HTTP/1.1\r\nHost: a/b\r\n\r\n", port: server.port)
            #expect(RawHTTP.status(of: response) == 400)
        }
        #expect(server.metrics.rejectedRequests == 12)
        server.shutdown()
        await running.value
        log.writeSummary()
        let lines = await capture.lines { $0.contains { $0.contains("suppressed") } }
        #expect(lines.count(where: { $0.contains(#""message":"request rejected""#) }) == 3)
        #expect(lines.filter { $0.contains("suppressed") }.map { $0.contains(#""message":"suppressed 9 rejected-request lines","suppressed":9}"#) } == [true])
    }

    @Test("when a window with suppressed lines ends, a summary accounts for every one of them")
    func summaryAtTheEndOfAWindow() async throws {
        let capture = try LogCapture()
        defer { capture.close() }
        let output = LogOutput(descriptor: capture.descriptor, interval: .milliseconds(10))
        defer { output.close() }
        let log = RejectedRequestLog(level: .info, output: output, linesPerWindow: 1, window: .milliseconds(100))
        let rejection = RejectedRequest(method: "GET", target: "/", status: .badRequest, reason: "invalid Host", peer: nil)
        for _ in 0..<5 { log.record(rejection) }
        let lines = await capture.lines { lines in
            let written = lines.count { $0.contains(#""message":"request rejected""#) }
            return written + Self.suppressedCount(in: lines) == 5
        }
        let written = lines.count { $0.contains(#""message":"request rejected""#) }
        #expect(written + Self.suppressedCount(in: lines) == 5)
        #expect(written < 5)
    }

    /// The sum of the counts of the summary lines.
    private static func suppressedCount(in lines: [String]) -> Int {
        lines.compactMap { line in line.firstMatch(of: #/"suppressed":(\d+)\}/#).flatMap { Int($0.output.1) } }.reduce(0, +)
    }

    /// Runs `body` against a gateway served on a loopback port, logging into a capture.
    private func withGateway(_ body: (_ port: Int, _ capture: LogCapture) async throws -> Void) async throws {
        let capture = try LogCapture()
        defer { capture.close() }
        try await withScenarioGateway(log: capture) { test, _ in
            try await body(test.port, capture)
        }
    }

    @Test("what is not known of a refused request is null, not guessed")
    func unknownParts() {
        var line: [UInt8] = []
        RejectedRequestLog.appendLine(
            RejectedRequest(method: nil, target: nil, status: .uriTooLong, reason: "request line too long", peer: nil), to: &line)
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasSuffix(#""status":414,"reason":"request line too long","method":null,"target":null,"peer":null}"# + "\n"))
    }
}
