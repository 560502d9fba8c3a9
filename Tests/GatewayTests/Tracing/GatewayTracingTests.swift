import GatewayTesting
import HTTPBasics
import Synchronization
import Testing
import UpstreamKit

@testable import Gateway

/// The reference gateway exporting its spans to a collector on loopback, read back with a small
/// protobuf reader of the test's own (the encoder's bytes are checked against the official
/// package in `OTLPTraceEncodingTests`, and by scripts/otlp-check).
@Suite("Traces of the reference gateway")
struct GatewayTracingTests {
    /// The fields of one span that the tests read.
    struct ReadSpan {
        var traceID = "", spanID = "", parentID = "", name = ""
        var kind = 0
        /// Wall-clock start and end, in nanoseconds since the Unix epoch.
        var start: UInt64 = 0, end: UInt64 = 0
        var strings: [String: String] = [:]
        var integers: [String: Int] = [:]
        var booleans: [String: Bool] = [:]
        var isError = false
        /// The names of the span's events.
        var events: [String] = []
    }

    @Test("GET /v1/people/1 with a client traceparent: one server span and a client span per call, each the parent id it sent")
    func peopleTrace() async throws {
        let collector = try StubUpstream()
        defer { collector.shutdown() }
        collector.answer("/v1/traces", method: .post, status: 200)
        let client = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let sent = Mutex<[String]>([])
        let planetAttempts = Mutex<[String]>([])
        try await withScenarioGateway(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": collector.baseURL]) { gateway, stubs in
            let first = try await gateway.get("/v1/people/1", headers: ["traceparent": client, "User-Agent": "trace-test"])
            // The homeworld, an optional part, fails on the second request.
            let before = stubs.received.count
            stubs.answer("/swapi/api/planets/1/", status: 503)
            let second = try await gateway.get("/v1/people/1")
            #expect(first.status == 200 && second.status == 200)
            sent.withLock { $0 = stubs.received.compactMap { $0.headers["traceparent"] } }
            planetAttempts.withLock {
                $0 = stubs.received.dropFirst(before).filter { $0.target.hasPrefix("/swapi/api/planets/1/") }.compactMap { $0.headers["traceparent"] }
            }
        }
        // Stopping the gateway flushed the queue.
        let spans = collector.received.flatMap { Self.spans(in: $0.body) }
        let trace = spans.filter { $0.traceID == "4bf92f3577b34da6a3ce929d0e0e4736" }
        let servers = trace.filter { $0.kind == 2 }
        try #require(servers.count == 1)
        let server = servers[0]
        #expect(server.name == "GET /v1/people/:id" && server.parentID == "00f067aa0ba902b7")
        #expect(server.strings["url.path"] == "/v1/people/1" && server.strings["http.route"] == "/v1/people/:id")
        #expect(server.strings["user_agent.original"] == "trace-test" && server.strings["client.address"] == "127.0.0.1")
        #expect(server.integers["http.response.status_code"] == 200 && !server.isError)
        let clients = trace.filter { $0.kind == 3 }
        #expect(clients.count == 4)
        #expect(clients.allSatisfy { $0.parentID == server.spanID && $0.name == "GET" && $0.integers["http.response.status_code"] == 200 })
        #expect(Set(clients.map { "00-4bf92f3577b34da6a3ce929d0e0e4736-\($0.spanID)-01" }).isSubset(of: Set(sent.withLock { $0 })))
        #expect(clients.allSatisfy { $0.strings["url.full"]?.hasPrefix("http://127.0.0.1:") == true && $0.strings["server.address"] == "127.0.0.1" })
        // The second request started a trace of its own, with its homeworld degraded: a 503 retried.
        let other = spans.filter { $0.traceID != "4bf92f3577b34da6a3ce929d0e0e4736" }
        let degraded = try #require(other.first { $0.kind == 2 })
        #expect(degraded.parentID.isEmpty && degraded.strings["gateway.degraded_parts"] == "homeworld")
        // Each attempt at the homeworld is a span of its own, by the parent id that attempt sent.
        let attempts = planetAttempts.withLock { $0 }
        #expect(attempts.count > 1 && Set(attempts).count == attempts.count)
        let planetSpans = other.filter { $0.kind == 3 && $0.strings["url.full"]?.hasSuffix("/planets/1/") == true }
        #expect(planetSpans.map { "00-\($0.traceID)-\($0.spanID)-01" } == attempts)
        #expect(planetSpans.map { $0.integers["http.request.resend_count"] ?? 0 } == Array(0..<attempts.count))
        #expect(planetSpans.allSatisfy { $0.isError && $0.strings["error.type"] == "503" && $0.parentID == degraded.spanID })
    }

    @Test(
        "each call's traceparent carries the sampler's decision: the client's flag under a parent-based sampler, else the ratio's",
        arguments: [
            // The client's own flag decides; a trace the gateway starts is sampled out at ratio 0.
            ("parentbased_traceidratio", ["01": "01", "00": "00", nil: "00"]),
            // A sampler that ignores parents overrules the client's flag.
            ("always_off", ["01": "00", "00": "00", nil: "00"]),
            ("always_on", ["01": "01", "00": "01", nil: "01"]),
        ] as [(String, [String?: String])])
    func sampledFlag(sampler: String, expected: [String?: String]) async throws {
        let collector = try StubUpstream()
        defer { collector.shutdown() }
        collector.answer("/v1/traces", method: .post, status: 200)
        let environment = ["OTEL_EXPORTER_OTLP_ENDPOINT": collector.baseURL, "OTEL_TRACES_SAMPLER": sampler, "OTEL_TRACES_SAMPLER_ARG": "0"]
        var exportedTraces = 0
        try await withScenarioGateway(environment: environment) { gateway, stubs in
            for (clientFlag, sentFlag) in expected {
                let before = stubs.received.count
                var headers: HTTPHeaders = [:]
                if let clientFlag { headers.add("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-\(clientFlag)") }
                let response = try await gateway.get("/v1/people/1", headers: headers)
                #expect(response.status == 200)
                let flags = stubs.received.dropFirst(before).compactMap { $0.headers["traceparent"]?.split(separator: "-").last }
                #expect(!flags.isEmpty && flags.allSatisfy { $0 == sentFlag }, "client flag \(clientFlag ?? "none")")
                if sentFlag == "01" { exportedTraces += 1 }
            }
        }
        let servers = collector.received.flatMap { Self.spans(in: $0.body) }.filter { $0.kind == 2 }
        #expect(servers.count == exportedTraces)
    }

    @Test("a second request answered from the gateway's kept combined answer is marked hit, and makes no call")
    func cachedCalls() async throws {
        let collector = try StubUpstream()
        defer { collector.shutdown() }
        collector.answer("/v1/traces", method: .post, status: 200)
        try await withScenarioGateway(environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": collector.baseURL]) { gateway, stubs in
            stubs.answer("/swapi/api/people/1/", json: #"{"name":"Luke Skywalker","birth_year":"19BBY","homeworld":"","starships":[]}"#,
                         headers: ["Cache-Control": "max-age=60"])
            for _ in 0..<2 {
                let response = try await gateway.get("/v1/people/1")
                #expect(response.status == 200)
            }
        }
        let spans = collector.received.flatMap { Self.spans(in: $0.body) }
        let servers = spans.filter { $0.kind == 2 }
        try #require(servers.count == 2)
        #expect(servers.map { $0.strings["gateway.cache.outcome"] } == [nil, "hit"])
        #expect(spans.filter { $0.kind == 3 }.allSatisfy { $0.parentID == servers[0].spanID && $0.strings["gateway.cache.outcome"] == "miss" })
    }

    @Test("a token fetched for a call is an event of that attempt's span, which carries neither the token nor the client's secret")
    func credentialRenewal() async throws {
        let collector = try StubUpstream()
        defer { collector.shutdown() }
        collector.answer("/v1/traces", method: .post, status: 200)
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/token", method: .post, json: #"{"access_token":"t0k3n","expires_in":300}"#)
        stub.answer("/api/whoami", json: #"{"user":"gateway"}"#)
        let api = UpstreamDefinition(name: "api", defaultBaseURL: "http://127.0.0.1:9")
        let whoami = Endpoint("/v1/whoami", summary: "x", upstreams: [api], example: ["user": "x"]) { call in
            try await call.upstream(api).get("whoami", query: [QueryItem("api_key", "k3y"), QueryItem("page", "2")],
                                              as: [String: String].self)
        }
        let gateway = try GatewayUnderTest(
            catalog: GatewayCatalog(upstreams: [api], endpoints: [whoami]),
            environment: [
                "UPSTREAM_API_URL": stub.baseURL + "/api", "UPSTREAM_API_OAUTH2_TOKEN_URL": stub.baseURL + "/token",
                "UPSTREAM_API_OAUTH2_CLIENT_ID": "client", "UPSTREAM_API_OAUTH2_CLIENT_SECRET": "s3cret",
                "OTEL_EXPORTER_OTLP_ENDPOINT": collector.baseURL,
            ])
        let first = try await gateway.get("/v1/whoami")
        let second = try await gateway.get("/v1/whoami")
        await gateway.stop()
        #expect(first.status == 200 && second.status == 200)
        let bodies = collector.received.map(\.body)
        let clients = bodies.flatMap { Self.spans(in: $0) }.filter { $0.kind == 3 }
        // The first call waited for the token; the second found it kept.
        #expect(clients.map(\.events) == [["gateway.credentials.renewed"], []])
        #expect(clients.first?.strings["url.full"] == stub.baseURL + "/api/whoami?api_key=REDACTED&page=2")
        for secret in ["t0k3n", "s3cret", "k3y", "Y2xpZW50OnMzY3JldA"] {
            #expect(!bodies.contains { String(decoding: $0, as: UTF8.self).contains(secret) })
        }
    }

    @Test("tracing off makes no exporter")
    func off() async throws {
        try await withScenarioGateway { gateway, _ in
            #expect(gateway.served.spanExporter == nil)
        }
    }

    // MARK: - A protobuf reader for the few fields read

    static func spans(in body: [UInt8]) -> [ReadSpan] {
        var spans: [ReadSpan] = []
        for (_, resourceSpans) in fields(body[...]) {
            for (field, scopeSpans) in fields(resourceSpans) where field == 2 {
                for (field, span) in fields(scopeSpans) where field == 2 { spans.append(read(span)) }
            }
        }
        return spans
    }

    private static func read(_ bytes: ArraySlice<UInt8>) -> ReadSpan {
        var span = ReadSpan()
        for (field, value) in fields(bytes) {
            switch field {
            case 1: span.traceID = hex(value)
            case 2: span.spanID = hex(value)
            case 4: span.parentID = hex(value)
            case 5: span.name = String(decoding: value, as: UTF8.self)
            case 6: span.kind = Int(value.first ?? 0)
            case 7: span.start = value.reversed().reduce(0) { $0 << 8 | UInt64($1) }
            case 8: span.end = value.reversed().reduce(0) { $0 << 8 | UInt64($1) }
            case 11: span.events += fields(value).filter { $0.0 == 2 }.map { String(decoding: $0.1, as: UTF8.self) }
            case 15: span.isError = fields(value).contains { $0.0 == 3 && $0.1.first == 2 }
            case 9:
                let keyValue = fields(value)
                guard let key = keyValue.first(where: { $0.0 == 1 }).map({ String(decoding: $0.1, as: UTF8.self) }),
                      let any = keyValue.first(where: { $0.0 == 2 })?.1, let (kind, content) = fields(any).first
                else { continue }
                switch kind {
                case 1: span.strings[key] = String(decoding: content, as: UTF8.self)
                case 2: span.booleans[key] = content.first == 1
                case 3: span.integers[key] = Int(varint(content))
                default: break
                }
            default: break
            }
        }
        return span
    }

    /// Each field's number and its bytes: a varint's own bytes, a fixed value's, or a length-delimited payload.
    private static func fields(_ bytes: ArraySlice<UInt8>) -> [(UInt64, ArraySlice<UInt8>)] {
        var result: [(UInt64, ArraySlice<UInt8>)] = []
        var index = bytes.startIndex
        func next() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.endIndex {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return value
        }
        while index < bytes.endIndex {
            let tag = next()
            let start = index
            switch tag & 7 {
            case 0:
                _ = next()
                result.append((tag >> 3, bytes[start..<index]))
            case 1: index += 8; result.append((tag >> 3, bytes[start..<index]))
            case 5: index += 4; result.append((tag >> 3, bytes[start..<index]))
            case 2:
                let length = Int(next())
                result.append((tag >> 3, bytes[index..<index + length]))
                index += length
            default: return result
            }
        }
        return result
    }

    private static func varint(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 7 | UInt64($1 & 0x7F) }
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
