import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import ReferenceScenario
import Testing
import UpstreamKit

@testable import Gateway

/// What an operator reads after a combined request: each call by name in the access line, the
/// degraded parts there and in /metrics, and the problem of a link from the wrong upstream.
@Suite("Calls in the access log and metrics")
struct CallLogTests {
    static let file = #"""
        {
          "upstreams": { "shop": { "url": "http://127.0.0.1:1/unused" }, "people": { "url": "http://127.0.0.1:1/unused" } },
          "endpoints": [{
            "path": "/v2/books/{isbn}",
            "parameters": { "isbn": { "in": "path", "type": "string" } },
            "calls": {
              "book": { "upstream": "shop", "path": "/books/{isbn}" },
              "author": { "upstream": "people", "link": "{book.author}" },
              "reviews": { "upstream": "shop", "path": "/reviews", "query": { "isbn": "{isbn}" }, "optional": true }
            },
            "response": { "title": "{book.title}", "author": "{author.name}", "stars": "{reviews.average}" }
          }]
        }
        """#

    @Test("the access line names each call with its upstream, outcome, status and attempts, then the degraded parts; /metrics counts them")
    func callsByName() async throws {
        let log = try LogCapture()
        defer { log.close() }
        try await FileEndpointEndToEndTests.withFileGateway(Self.file, ["UPSTREAM_SHOP_RETRY_BACKOFF_MS": "0"], log: log) { test, stubs in
            stubs.answer(under: "/shop/books/", status: .ok, body: #"{"title":"Dune","author":"\#(stubs.baseURL)/people/7"}"#)
            stubs.answer(under: "/people/7", status: .ok, body: #"{"name":"Frank Herbert"}"#)
            stubs.answer(under: "/shop/reviews", status: .serviceUnavailable, body: "{}")
            let response = try await test.get("/v2/books/42")
            #expect(response.text == #"{"title":"Dune","author":"Frank Herbert","stars":null,"degraded":["reviews"]}"#)
            let lines = await log.lines { $0.contains { $0.contains(#""route":"/v2/books/:isbn""#) } }
            let line = try #require(lines.first { $0.contains(#""route":"/v2/books/:isbn""#) })
            #expect(line.contains(#"{"call":"book","upstream":"shop","outcome":"success","status":200,"attempts":1,"#))
            #expect(line.contains(#"{"call":"reviews","upstream":"shop","outcome":"server_error","status":503,"attempts":3,"#))
            #expect(line.contains(#"{"call":"author","upstream":"people","outcome":"success","status":200,"attempts":1,"#))
            #expect(line.hasSuffix(#"],"degraded":["reviews"]}"#))
            let metrics = try await test.get("/metrics").text
            #expect(metrics.contains(#"gateway_degraded_parts_total{route="/v2/books/:isbn",part="reviews"} 1"#))
        }
    }

    @Test("a Swift endpoint's calls are named by their path, without the query")
    func swiftEndpointCalls() async throws {
        let log = try LogCapture()
        defer { log.close() }
        try await withScenarioGateway(log: log) { (gateway, stubs) throws in
            #expect(try await gateway.get("/v1/people/1").status == 200)
            let lines = await log.lines { $0.contains { $0.contains(#""route":"/v1/people/:id""#) } }
            #expect(lines.contains { $0.contains(#"{"call":"/people/1/","upstream":"swapi","outcome":"success","status":200,"attempts":1,"#) })
        }
    }

    @Test("a call without a name is named by its path, or its link without the query")
    func defaultNames() throws {
        #expect(UpstreamClient.CallRecordStart.name(of: Request<[String]>(path: try Path("people", "1", trailingSlash: true)).destination) == "/people/1/")
        #expect(UpstreamClient.CallRecordStart.name(of: Request<[String]>(link: "http://h/api/planets/1/?key=secret").destination) == "http://h/api/planets/1/")
        #expect(UpstreamClient.CallRecordStart.name(of: Request<[String]>(link: "http://h/api/planets/1/").destination) == "http://h/api/planets/1/")
    }

    @Test("a link outside its upstream's base URL names the upstream whose answer held it")
    func refusedLink() async throws {
        try await FileEndpointEndToEndTests.withFileGateway(Self.file) { test, stubs in
            stubs.answer(under: "/shop/books/", status: .ok, body: #"{"title":"Dune","author":"http://elsewhere.example/people/7"}"#)
            let response = try await test.get("/v2/books/42")
            #expect(response.status == 502)
            #expect(response.text.contains(#""detail":"call author: upstream shop answered call book with a link outside the base URL of upstream people""#))
            #expect(stubs.received.allSatisfy { !$0.path.hasPrefix("/people") })
        }
    }

    @Test("a start-up error in a call is placed once")
    func callErrorPlacedOnce() throws {
        let file = Self.file.replacingOccurrences(of: #""optional": true"#, with: #""optinal": true"#)
        do {
            _ = try EndpointsFile(parsing: Array(file.utf8), alongside: .reference)
            Issue.record("the file was accepted")
        } catch {
            #expect(error.fault.hasPrefix(#"endpoint GET /v2/books/{isbn}: call reviews: unknown field "optinal"; expected one of "#))
        }
    }
}
