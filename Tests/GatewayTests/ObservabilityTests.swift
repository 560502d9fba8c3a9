import GatewayTesting
import Glibc
import Testing

@testable import Gateway
@testable import ReferenceScenario

@Suite("Metrics and access log")
struct ObservabilityTests {
    @Test("the histogram counts each duration once, cumulatively by bucket")
    func histogram() {
        var histogram = LatencyHistogram()
        histogram.record(.microseconds(300))
        histogram.record(.milliseconds(3))
        histogram.record(.seconds(30))
        var text = ""
        histogram.render("latency", labels: #"route="/x""#, into: &text)
        #expect(text.contains(#"latency_bucket{route="/x",le="0.0005"} 1"#))
        #expect(text.contains(#"latency_bucket{route="/x",le="0.005"} 2"#))
        #expect(text.contains(#"latency_bucket{route="/x",le="10.0"} 2"#))
        #expect(text.contains(#"latency_bucket{route="/x",le="+Inf"} 3"#))
        #expect(text.contains(#"latency_count{route="/x"} 3"#))
    }

    @Test("route and upstream counters render as Prometheus text")
    func prometheus() {
        let route = RouteMetrics(route: "/v1/menu")
        route.record(status: 200, duration: .milliseconds(2))
        route.record(status: 200, duration: .milliseconds(2))
        route.record(status: 502, duration: .milliseconds(2))
        let upstream = UpstreamMetrics(name: "menu")
        upstream.record(.success, cache: nil, duration: .milliseconds(1))
        upstream.record(.timedOut, cache: nil, duration: .milliseconds(1))
        let text = GatewayMetrics(routes: [route], upstreams: [upstream], cache: nil, missingFields: [], gauges: { (3, 1, 7, 2, 5) }).render()
        #expect(text.contains(#"gateway_requests_total{route="/v1/menu",status="200"} 2"#))
        #expect(text.contains(#"gateway_requests_total{route="/v1/menu",status="502"} 1"#))
        #expect(text.contains(#"gateway_upstream_calls_total{upstream="menu",outcome="success"} 1"#))
        #expect(text.contains(#"gateway_upstream_calls_total{upstream="menu",outcome="timeout"} 1"#))
        #expect(text.contains(#"gateway_upstream_call_duration_seconds_count{upstream="menu"} 2"#))
        #expect(text.contains("gateway_open_connections 3\n"))
        #expect(text.contains("gateway_in_flight_requests 1\n"))
        #expect(text.contains("gateway_rejected_requests_total 7\n"))
        #expect(text.contains("gateway_refused_connections_total 2\n"))
        #expect(text.contains("gateway_reclaimed_connections_total 5\n"))
        #expect(text.contains("# TYPE gateway_request_duration_seconds histogram\n"))
    }

    @Test("an upstream call that followed redirects has their number in the access log")
    func accessLogRedirects() {
        let scope = RequestScope(requestID: "id-1", trace: TraceContext(of: [:]), start: .now, deadline: .now)
        scope.record(
            UpstreamCallRecord(
                call: "/get", upstream: "bin", outcome: .success, status: 200, attempts: 1, duration: .microseconds(250), cache: nil,
                redirects: 2))
        var bytes: [UInt8] = []
        AccessLog(level: .info, output: nil).appendLine(
            method: "GET", path: "/v1/bin", route: "/v1/bin", status: 200, duration: .milliseconds(1), scope: scope, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains(
            #"{"call":"/get","upstream":"bin","outcome":"success","status":200,"attempts":1,"durationMs":0.250,"redirects":2}"#))
    }

    @Test("an access log line is one JSON object with the request's upstream calls by name, and its degraded parts")
    func accessLogLine() throws {
        let trace = TraceContext(of: ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])
        let scope = RequestScope(requestID: "id-1", trace: trace, start: .now, deadline: .now)
        scope.record(
            UpstreamCallRecord(
                call: "/planets/1/", upstream: "swapi", outcome: .serverError, status: 503, attempts: 3, duration: .microseconds(1500),
                cache: nil))
        scope.degraded = ["homeworld"]
        let log = AccessLog(level: .info, output: nil)
        var bytes: [UInt8] = []
        log.appendLine(method: "GET", path: "/v1/people/\"1", route: "/v1/people/:id", status: 502, duration: .milliseconds(12), scope: scope, to: &bytes)
        let line = String(decoding: bytes, as: UTF8.self)
        #expect(line.hasSuffix("}\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(line.contains(#""requestId":"id-1","traceId":"4bf92f3577b34da6a3ce929d0e0e4736","method":"GET","path":"/v1/people/\"1","route":"/v1/people/:id","status":502,"durationMs":12.000"#))
        #expect(line.contains(
            #""upstreamCalls":[{"call":"/planets/1/","upstream":"swapi","outcome":"server_error","status":503,"attempts":3,"durationMs":1.500}],"degraded":["homeworld"]}"#))
        #expect(JSONValue(parsing: Array(line.utf8)) != nil)
        let time = try #require(line.firstMatch(of: #/"time":"(\d{4})-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/#))
        #expect(try #require(Int(time.output.1)) >= 2026)
    }

    @Test("a served request's access line gives each upstream call's status, also on success")
    func accessLogOfAServedRequest() async throws {
        let log = try LogCapture()
        defer { log.close() }
        try await withScenarioGateway(log: log) { (gateway, stubs) throws in
            stubs.answer(under: "/menu/dish_of_the_day.json", status: .serviceUnavailable, body: "{}")
            #expect(try await gateway.get("/v1/menu").status == 200)
            let line = await log.lines { !$0.isEmpty }.joined(separator: "\n")
            #expect(line.contains(#""upstream":"menu","outcome":"success","status":200,"attempts":1,"#))
            // The part's call was retried (RETRY_ATTEMPTS is 3 by default), and the part degraded.
            #expect(line.contains(#"{"call":"/dish_of_the_day.json","upstream":"menu","outcome":"server_error","status":503,"attempts":3,"#))
            #expect(line.contains(#"],"degraded":["dishOfTheDay"]}"#))
        }
    }

    @Test("the access line names the trace the upstream calls carry, also one the gateway started")
    func accessLogTraceID() async throws {
        let log = try LogCapture()
        defer { log.close() }
        try await withScenarioGateway(log: log) { gateway, stubs in
            #expect(try await gateway.get("/v1/menu").status == 200)
            let lines = await log.lines { $0.contains { $0.contains(#""traceId""#) } }
            let traceParent = try #require(stubs.received.first?.headers["traceparent"])
            let traceID = traceParent.split(separator: "-")[1]
            #expect(stubs.received.allSatisfy { $0.headers["traceparent"]?.split(separator: "-")[1] == traceID })
            #expect(lines.contains { $0.contains(#""traceId":"\#(traceID)","method":"GET""#) })
        }
    }

    @Test("log levels: access lines at info, attempt lines at debug, nothing when off")
    func levels() {
        let output = LogOutput(descriptor: -1)
        defer { output.close() }
        #expect(EventLog(level: .debug, output: output).isEnabled(.debug))
        #expect(!EventLog(level: .info, output: output).isEnabled(.debug))
        #expect(EventLog(level: .info, output: output).isEnabled(.warning))
        #expect(!EventLog(level: .off, output: output).isEnabled(.error))
        #expect(!EventLog(level: .debug, output: nil).isEnabled(.error))
        #expect(LogLevel(name: "WARNING") == .warning && LogLevel(name: "verbose") == nil)
    }

    @Test("a line that would take the log queue past its capacity is dropped whole; later ones that fit are kept")
    func logOutputCapacity() throws {
        #expect(try flushedOutput(of: ["first\n", "second\n", "x\n"], capacity: 10) == "first\nx\n")
    }

    @Test("the log output writes whole queued lines, in order, when flushed")
    func logOutput() throws {
        #expect(try flushedOutput(of: ["first\n", "second\n"]) == "first\nsecond\n")
    }

    /// What a log output over a pipe writes for `lines`, queued one by one and flushed by `close()`.
    private func flushedOutput(of lines: [String], capacity: Int = 8 << 20) throws -> String {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let output = LogOutput(descriptor: descriptors[1], interval: .seconds(60), capacity: capacity)
        for line in lines {
            output.write { $0.append(contentsOf: line.utf8) }
        }
        output.close()
        close(descriptors[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptors[0], &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }
}
