import HTTPBasics
import Testing
import UpstreamKit

@testable import Gateway

@Suite("Request spans by the HTTP semantic conventions")
struct RequestSpansTests {
    static let served = RequestSpans.Served(
        method: "GET", path: "/v1/people/1", scheme: "http", route: "/v1/people/{id}", clientAddress: "127.0.0.1", userAgent: "curl/8",
        status: 200, rateLimited: false, startNanoseconds: 1_000_000_000, duration: .milliseconds(20))
    static let trace = TraceContext(of: ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])

    static func call(
        _ name: String, status: Int?, outcome: UpstreamOutcome = .success, attempts: Int = 1, cache: CacheStatus? = nil, parentID: String
    ) -> UpstreamCallRecord {
        UpstreamCallRecord(
            call: name, upstream: "swapi", outcome: outcome, status: status, attempts: attempts, duration: .milliseconds(5), cache: cache,
            traceParent: Self.traceParent(parentID), startOffset: .milliseconds(2))
    }

    static func traceParent(_ parentID: String) -> String {
        "00-4bf92f3577b34da6a3ce929d0e0e4736-\(parentID)-01"
    }

    static func attribute(_ key: String, of span: Span) -> SpanAttribute.Value? {
        span.attributes.first { $0.key == key }?.value
    }

    @Test("the server span continues the client's trace, named by route, and each call is its child by the id it sent")
    func serverAndClients() throws {
        let calls = [
            Self.call("person", status: 200, parentID: "1111111111111111"),
            Self.call("homeworld", status: 404, outcome: .clientError, attempts: 3, parentID: "2222222222222222"),
            Self.call("films", status: 200, cache: CacheStatus(outcome: .hit), parentID: "3333333333333333"),
            Self.call("species", status: nil, outcome: .circuitOpen, attempts: 0, cache: CacheStatus(outcome: .miss, collapsed: true),
                      parentID: "4444444444444444"),
        ]
        let origin = try BaseURL("https://swapi.example:8443/api").origin
        var traced = RequestSpans.Calls(
            records: calls,
            notes: Dictionary(uniqueKeysWithValues: calls.map { ($0.traceParent, CallSpanNote(method: .get, origin: origin, url: "https://swapi.example:8443/api/people/1/")) }))
        // The homeworld's two attempts before its last, each a span of its own by the parent id it sent.
        traced.earlierAttempts[calls[1].traceParent] = EarlierAttempts(
            attempts: [
                .init(traceParent: Self.traceParent("aaaaaaaaaaaaaaaa"), startOffset: .milliseconds(2), duration: .milliseconds(1), outcome: .serverError, status: 503),
                .init(traceParent: Self.traceParent("bbbbbbbbbbbbbbbb"), startOffset: .milliseconds(3), duration: .milliseconds(1), outcome: .timedOut),
            ],
            latest: calls[1].traceParent, latestStartOffset: .milliseconds(4))
        traced.events[Self.traceParent("bbbbbbbbbbbbbbbb")] = [SpanEvent(name: "gateway.credentials.renewed", timeNanoseconds: 1_003_500_000, attributes: [])]
        let spans = RequestSpans.spans(of: Self.served, spanID: 0xABC, trace: Self.trace, calls: traced, degraded: ["species"])
        try #require(spans.count == 7)
        let server = spans[0]
        #expect(server.name == "GET /v1/people/{id}")
        #expect(server.kind == .server)
        #expect(server.traceID == (0x4bf9_2f35_77b3_4da6, 0xa3ce_929d_0e0e_4736))
        #expect(server.parentSpanID == 0x00f0_67aa_0ba9_02b7 && server.parentIsRemote)
        #expect(server.endNanoseconds == 1_020_000_000)
        #expect(Self.attribute("url.path", of: server) == .string("/v1/people/1"))
        #expect(Self.attribute("http.route", of: server) == .string("/v1/people/{id}"))
        #expect(Self.attribute("client.address", of: server) == .string("127.0.0.1"))
        #expect(Self.attribute("gateway.degraded_parts", of: server) == .string("species"))
        #expect(server.status == .unset)

        var clients = Array(spans.dropFirst())
        #expect(clients.map(\.spanID) == [
            0x1111_1111_1111_1111, 0xAAAA_AAAA_AAAA_AAAA, 0xBBBB_BBBB_BBBB_BBBB, 0x2222_2222_2222_2222, 0x3333_3333_3333_3333, 0x4444_4444_4444_4444,
        ])
        let retried = clients.remove(at: 1)
        let resent = clients.remove(at: 1)
        #expect(Self.attribute("http.request.resend_count", of: retried) == nil && Self.attribute("error.type", of: retried) == .string("503"))
        #expect(retried.startNanoseconds == 1_002_000_000 && retried.endNanoseconds == 1_003_000_000)
        #expect(Self.attribute("http.request.resend_count", of: resent) == .int(1) && Self.attribute("error.type", of: resent) == .string("timeout"))
        #expect(resent.events.map(\.name) == ["gateway.credentials.renewed"] && clients[1].events.isEmpty)
        // The last attempt runs from its own start to the call's end.
        #expect(clients[1].startNanoseconds == 1_004_000_000 && clients[1].endNanoseconds == 1_007_000_000)
        #expect(clients.allSatisfy { $0.parentSpanID == 0xABC && $0.kind == .client && $0.name == "GET" && !$0.parentIsRemote })
        #expect(clients[0].startNanoseconds == 1_002_000_000 && clients[0].endNanoseconds == 1_007_000_000)
        #expect(Self.attribute("url.full", of: clients[0]) == .string("https://swapi.example:8443/api/people/1/"))
        #expect(Self.attribute("server.address", of: clients[0]) == .string("swapi.example"))
        #expect(Self.attribute("server.port", of: clients[0]) == .int(8443))
        #expect(clients[0].status == .unset)
        // A 4xx is an error on a client span, with its retries counted.
        #expect(clients[1].status == .error(description: ""))
        #expect(Self.attribute("error.type", of: clients[1]) == .string("404"))
        #expect(Self.attribute("http.request.resend_count", of: clients[1]) == .int(2))
        #expect(Self.attribute("http.request.resend_count", of: clients[0]) == nil)
        #expect(Self.attribute("gateway.cache.outcome", of: clients[2]) == .string("hit"))
        #expect(Self.attribute("gateway.cache.outcome", of: clients[3]) == .string("coalesced"))
        #expect(Self.attribute("gateway.upstream.outcome", of: clients[3]) == .string("circuit_open"))
        #expect(Self.attribute("gateway.degraded", of: clients[3]) == .bool(true))
        #expect(Self.attribute("error.type", of: clients[3]) == .string("circuit_open"))
    }

    @Test("a traced scope gives each retry a traceparent of its own and keeps the earlier attempts by the call's last one")
    func retriesInTheScope() throws {
        let scope = RequestScope(requestID: "id", trace: Self.trace, start: .now, deadline: .now + .seconds(5))
        scope.tracedStart = 1
        let first = Self.trace.traceParentForCall()
        var request = TransportRequest(method: .get, origin: Origin(scheme: "http", host: "a", port: 80), target: "/", headers: ["traceparent": first])
        for _ in 0..<2 {
            let sent = try #require(request.headers["traceparent"])
            scope.renewedCredentials(during: request, CredentialRenewal(source: .clientCredentialsGrant, failure: .timedOut))
            scope.retrying(&request, after: RetriedAttempt(start: .now, end: .now, outcome: .failure(.timedOut)))
            #expect(request.headers["traceparent"] != sent && request.headers["traceparent"]?.hasPrefix(String(sent.prefix(36))) == true)
        }
        scope.record(UpstreamCallRecord(
            call: "c", upstream: "u", outcome: .success, status: 200, attempts: 1, duration: .zero, cache: nil, traceParent: first))
        let calls = scope.callTraces
        let last = try #require(request.headers["traceparent"])
        #expect(calls.records.map(\.attempts) == [3] && calls.records.map(\.traceParent) == [last])
        #expect(calls.earlierAttempts[last]?.attempts.map(\.traceParent).first == first)
        #expect(calls.earlierAttempts[last]?.attempts.count == 2)
        #expect(calls.events[first]?.first?.attributes == [
            SpanAttribute("gateway.credentials.source", "oauth2_client_credentials"), SpanAttribute("error.type", "timeout"),
        ])
    }

    @Test("a 4xx answer is no error of the server span, a 5xx is; an unmatched request is named by its method")
    func serverStatus() {
        var served = Self.served
        served.status = 429
        served.route = nil
        served.rateLimited = true
        let refused = RequestSpans.spans(of: served, spanID: 1, trace: TraceContext(of: [:]), calls: RequestSpans.Calls(), degraded: [])[0]
        #expect(refused.status == .unset && refused.name == "GET")
        #expect(refused.parentSpanID == 0 && !refused.parentIsRemote)
        #expect(Self.attribute("gateway.rate_limited", of: refused) == .bool(true))
        #expect(Self.attribute("http.route", of: refused) == nil)
        served.status = 502
        let failed = RequestSpans.spans(of: served, spanID: 1, trace: Self.trace, calls: RequestSpans.Calls(), degraded: [])[0]
        #expect(failed.status == .error(description: ""))
        #expect(Self.attribute("error.type", of: failed) == .string("502"))
    }

    @Test("cache outcomes by their names", arguments: [
        (CacheStatus.Outcome.hit, "hit"), (.miss, "miss"), (.staleIfError, "stale"), (.staleWhileRevalidate, "stale"),
        (.revalidated, "revalidated"),
    ] as [(CacheStatus.Outcome, String)])
    func cacheOutcomes(outcome: CacheStatus.Outcome, name: String) {
        #expect(RequestSpans.cacheOutcome(CacheStatus(outcome: outcome)) == name)
    }
}
