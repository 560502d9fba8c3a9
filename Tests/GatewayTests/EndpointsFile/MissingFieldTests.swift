import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import ReferenceScenario
import Testing

@testable import Gateway

/// A template reference that finds no field in its call's answer: counted, logged, failing the
/// call when it asks to, and caught at start-up against the endpoint's example.
@Suite("Endpoints file: missing fields")
struct MissingFieldTests {
    static let file = #"""
        {
          "upstreams": { "shop": { "url": "http://127.0.0.1:1/unused" } },
          "endpoints": [{
            "path": "/v2/books/{isbn}",
            "parameters": { "isbn": { "in": "path", "type": "string" } },
            "calls": {
              "book": { "upstream": "shop", "path": "/books/{isbn}" },
              "reviews": { "upstream": "shop", "path": "/reviews/{isbn}", "optional": true, "missing_fields": "MODE" }
            },
            "response": { "title": "{book.titel}", "stars": "{reviews.average}" }
          }]
        }
        """#

    @Test("which values count as missing: absent members, indices and arrays, not a null that is there")
    func extraction() throws {
        let steps: [[Reference.Step]] = [
            [.member("a")], [.member("gone")], [.member("list"), .index(5)], [.member("none")], [.member("gone"), .each], [.member("list"), .each],
        ]
        let values = try ExtractedValues(
            extracting: steps.map { Extraction(steps: $0, isText: false) }, from: Array(#"{"a":1,"list":[1],"none":null}"#.utf8))
        #expect(values.missing == [1, 2, 4])
        let present = try ExtractedValues(extracting: [Extraction(steps: [.member("a")], isText: true)], from: Array(#"{"a":"x"}"#.utf8))
        #expect(present.missing.isEmpty)
    }

    @Test("a warning at once, then at most one per interval with the count since the last")
    func warningsLimitedInRate() {
        var counts = MissingFieldCounts(slots: 2, warningInterval: .seconds(60))
        let start = ContinuousClock.now
        #expect(counts.record(0, at: start) == 1)
        #expect(counts.record(0, at: start + .seconds(1)) == nil)
        #expect(counts.record(1, at: start + .seconds(2)) == 1)
        #expect(counts.record(0, at: start + .seconds(30)) == nil)
        #expect(counts.record(0, at: start + .seconds(61)) == 3)
        #expect(counts.totals == [4, 1])
    }

    @Test("a mistyped field answers null, and is counted in /metrics and logged at warning once")
    func countedAndLogged() async throws {
        let log = try LogCapture()
        defer { log.close() }
        try await FileEndpointEndToEndTests.withFileGateway(
            Self.file.replacingOccurrences(of: "MODE", with: "null"), ["LOG_LEVEL": "warning"], log: log) { test, stubs in
            stubs.answer(under: "/shop/books/", status: .ok, body: #"{"title":"Dune"}"#)
            stubs.answer(under: "/shop/reviews/", status: .ok, body: #"{"average":4.5}"#)
            for _ in 0..<2 {
                let response = try await test.get("/v2/books/1")
                #expect(response.text == #"{"title":null,"stars":4.5,"degraded":[]}"#)
            }
            let metrics = try await test.get("/metrics").text
            #expect(metrics.contains(#"gateway_template_missing_fields_total{route="/v2/books/:isbn",reference="book.titel"} 2"#))
            #expect(!metrics.contains(#"reference="reviews.average""#))
            let lines = await log.lines { $0.contains { $0.contains("book.titel") } }
            let warnings = lines.filter { $0.contains("found no field") }
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains(#""level":"warning","message":"endpoint GET /v2/books/:isbn: reference {book.titel} found no field in the answer""#) == true)
        }
    }

    @Test(#""missing_fields": "fail" fails the call: an optional one degrades, a required one answers 502"#)
    func failingCalls() async throws {
        try await FileEndpointEndToEndTests.withFileGateway(
            Self.file.replacingOccurrences(of: "MODE", with: "fail").replacingOccurrences(of: "{book.titel}", with: "{book.title}")) { test, stubs in
            stubs.answer(under: "/shop/books/", status: .ok, body: #"{"title":"Dune"}"#)
            stubs.answer(under: "/shop/reviews/", status: .ok, body: #"{"averageStars":4.5}"#)
            let degraded = try await test.get("/v2/books/1")
            #expect(degraded.status == 200)
            #expect(degraded.text == #"{"title":"Dune","stars":null,"degraded":["reviews"]}"#)
            #expect(degraded.headers["X-Gateway-Completed"] == "false")
        }

        try await FileEndpointEndToEndTests.withFileGateway(
            Self.file.replacingOccurrences(of: "MODE", with: "null").replacingOccurrences(
                of: #""path": "/books/{isbn}" }"#, with: #""path": "/books/{isbn}", "missing_fields": "fail" }"#)) { required, stubs in
            stubs.answer(under: "/shop/books/", status: .ok, body: #"{"title":"Dune"}"#)
            let failed = try await required.get("/v2/books/1")
            #expect(failed.status == 502)
            #expect(failed.text.contains("upstream shop answered call book without a field its templates read"))
        }
    }

    @Test("start-up: the example must have a place for every reference of the response; missing_fields is null or fail")
    func startupChecks() throws {
        func fault(_ text: String) -> String? {
            do {
                _ = try EndpointsFile(parsing: Array(text.utf8), alongside: .reference)
                return nil
            } catch {
                return error.fault
            }
        }
        let endpoint = #"{ "endpoints": [{ "path": "/x", "calls": { "p": { "upstream": "swapi", "path": "/p" MORE } }, "response": RESPONSE, "example": EXAMPLE }] }"#
        func file(_ response: String, _ example: String, more: String = "") -> String {
            endpoint.replacingOccurrences(of: "RESPONSE", with: response).replacingOccurrences(of: "EXAMPLE", with: example)
                .replacingOccurrences(of: "MORE", with: more)
        }
        #expect(fault(file(#"{"a":"{p.a}","b":{"c":"{p.c}"},"k":1}"#, #"{"a":"x","b":{"c":null}}"#)) == nil)
        #expect(fault(file(#"{"a":"{p.a}","b":{"c":"{p.c}"}}"#, #"{"a":"x","b":{"d":1}}"#))
            == "endpoint GET /x: example: it has no b.c, which the response fills from a reference; add it, or correct the reference")
        #expect(fault(file(#"{"l":["{p.a}","{p.b}"]}"#, #"{"l":["x"]}"#)) == nil)
        #expect(fault(file(#"{"l":["{p.a}"]}"#, #"{"l":[]}"#))?.contains("it has no l,") == true)
        #expect(fault(file(#"{"t":"{p.a}"}"#, #"{"title":"x"}"#))?.contains("it has no t,") == true)
        #expect(fault(file(#"{"t":"{p.a}"}"#, #"{"t":1}"#, more: #", "missing_fields": "nul""#))
            == #"endpoint GET /x: call p: missing_fields must be "null" or "fail""#)
    }
}
