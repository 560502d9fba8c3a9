import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import ReferenceScenario
import Testing

@testable import Gateway

/// JMESPath expressions in the endpoints file's response templates (issue #33): the product page
/// built from a catalog API and a reviews API, served against stub upstreams over sockets.
@Suite("Endpoints file: JMESPath expressions")
struct ExpressionEndToEndTests {
    static let productPage = #"""
        {
          "upstreams": { "shop": { "url": "http://127.0.0.1:1/unused" }, "people": { "url": "http://127.0.0.1:1/unused" } },
          "endpoints": [{
            "path": "/v2/products/{id}",
            "parameters": { "id": { "in": "path", "type": "integer", "minimum": 1 } },
            "calls": {
              "catalog": { "upstream": "shop", "path": "/products/{id}" },
              "reviews": { "upstream": "people", "path": "/reviews/{id}", "optional": true }
            },
            "response": {
              "id": "{id}",
              "name": "{catalog.name}",
              "price": { "$jmespath": "to_string(catalog.price_cents / `100`)" },
              "inStock": { "$jmespath": "catalog.stock > `0`" },
              "rating": { "$jmespath": "avg(reviews.items[*].stars)" },
              "reviews": { "$jmespath": "reviews.items[:3].text" }
            },
            "example": { "id": 1, "name": "Espresso cup", "price": "12.34", "inStock": true, "rating": 3.5, "reviews": ["Lovely"] }
          }]
        }
        """#

    static let catalog = #"{"id":1,"name":"Espresso cup","price_cents":1234,"stock":7,"warehouse":"B4","supplier":{"id":9}}"#
    static let reviews =
        #"{"items":[{"stars":4,"text":"Lovely","user":"a"},{"stars":5,"text":"Good","user":"b"},{"stars":1,"text":"OK","user":"c"},{"stars":4,"text":"Meh","user":"d"}]}"#

    static func withProductPage(_ file: String = productPage, _ body: (GatewayUnderTest, StubUpstream) async throws -> Void) async throws {
        try await FileEndpointEndToEndTests.withFileGateway(file, ["UPSTREAM_PEOPLE_RETRY_ATTEMPTS": "1"], body)
    }

    @Test("the issue's product page answers exactly the JSON the frontend wants")
    func productPageAnswers() async throws {
        try await Self.withProductPage { test, stubs in
            stubs.answer(under: "/shop/products/1", status: .ok, body: Self.catalog)
            stubs.answer(under: "/people/reviews/1", status: .ok, body: Self.reviews)
            let response = try await test.get("/v2/products/1")
            #expect(response.status == 200)
            #expect(
                response.text
                    == #"{"id":1,"name":"Espresso cup","price":"12.34","inStock":true,"rating":3.5,"reviews":["Lovely","Good","OK"],"degraded":[]}"#)
            let document = try await test.get("/openapi.json")
            #expect(document.text.contains(#""description":"Computed by the JMESPath expression avg(reviews.items[*].stars)""#))
        }
    }

    @Test("with the reviews upstream down, what reads it is null and the answer is degraded")
    func reviewsDown() async throws {
        try await Self.withProductPage { test, stubs in
            stubs.answer(under: "/shop/products/1", status: .ok, body: Self.catalog)
            stubs.answer(under: "/people/reviews/1", status: .serviceUnavailable, body: "{}")
            let response = try await test.get("/v2/products/1")
            #expect(response.status == 200)
            #expect(
                response.text
                    == #"{"id":1,"name":"Espresso cup","price":"12.34","inStock":true,"rating":null,"reviews":null,"degraded":["reviews"]}"#)
            #expect(response.headers["X-Gateway-Completed"] == "false")
        }
    }

    @Test("a run-time type error is a 502 problem naming the member, without the upstream's values, and counted")
    func typeErrorIsBadGateway() async throws {
        try await Self.withProductPage { test, stubs in
            stubs.answer(under: "/shop/products/1", status: .ok, body: Self.catalog)
            stubs.answer(under: "/people/reviews/1", status: .ok, body: #"{"items":[{"stars":"SECRET-five","text":"x"}]}"#)
            let response = try await test.get("/v2/products/1")
            #expect(response.status == 502)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text.contains("the expression of response member rating failed: invalid-type error at position 1"))
            #expect(!response.text.contains("SECRET"))
            let metrics = try await test.get("/metrics")
            #expect(metrics.text.contains(#"gateway_template_expression_failures_total{route="/v2/products/:id",member="rating"} 1"#))
        }
    }

    @Test("an expression may compute a call's body from an earlier call's answer")
    func expressionInCallBody() async throws {
        let file = Self.productPage.replacingOccurrences(
            of: #""reviews": { "upstream": "people", "path": "/reviews/{id}", "optional": true }"#,
            with: #""reviews": { "upstream": "people", "method": "POST", "path": "/reviews/{id}", "optional": true, "body": { "cents": { "$jmespath": "catalog.price_cents * `2`" } } }"#)
        try await Self.withProductPage(file) { test, stubs in
            stubs.answer(under: "/shop/products/1", status: .ok, body: Self.catalog)
            stubs.answer(under: "/people/reviews/1", status: .ok, body: Self.reviews)
            let response = try await test.get("/v2/products/1")
            #expect(response.status == 200)
            let sent = stubs.received.first { $0.target == "/people/reviews/1" }
            #expect(sent.map { String(decoding: $0.body, as: UTF8.self) } == #"{"cents":2468}"#)
        }
    }

    @Test("an expression may compute a call's query from an earlier call's answer; null leaves it out")
    func expressionInCallQuery() async throws {
        let file = Self.productPage.replacingOccurrences(
            of: #""reviews": { "upstream": "people", "path": "/reviews/{id}", "optional": true }"#,
            with: #""reviews": { "upstream": "people", "path": "/reviews/{id}", "optional": true, "query": { "stock": { "$jmespath": "catalog.stock > `5` ? 'many' : 'few'" }, "none": { "$jmespath": "catalog.nothing" }, "supplier": { "$jmespath": "catalog.supplier" } } }"#)
        try await Self.withProductPage(file) { test, stubs in
            stubs.answer(under: "/shop/products/1", status: .ok, body: Self.catalog)
            stubs.answer(under: "/people/reviews/1", status: .ok, body: Self.reviews)
            let response = try await test.get("/v2/products/1")
            #expect(response.status == 200)
            #expect(stubs.received.map(\.target).contains("/people/reviews/1?stock=many&supplier=%7B%22id%22%3A9%7D"))
        }
    }

    @Test(
        "a bad expression is refused at load in one line with its position",
        arguments: [
            ("catalog.price_cents /", "response: member price: expression \"catalog.price_cents /\": syntax error at position 22: unexpected end of the expression"),
            ("avrg(catalog.stock)", "response: member price: expression \"avrg(catalog.stock)\": unknown-function error at position 1: unknown function avrg()"),
            ("abs(catalog.stock, `1`)", "response: member price: expression \"abs(catalog.stock, `1`)\": invalid-arity error at position 1: abs() takes 1 argument, not 2"),
            ("catalgo.stock", "response: member price: expression \"catalgo.stock\": unknown call or parameter catalgo"),
            ("@", "response: member price: expression \"@\": it reads the whole context (@, $ or * alone); name the parameters and calls it reads"),
        ])
    func refusedAtLoad(expression: String, fault: String) {
        let file = EndpointsFileTests.endpoint(
            calls: #"{"catalog":{"upstream":"menu","path":"/x"}}"#, response: #"{"price":{"$jmespath":\#(JSONString(expression))}}"#)
        #expect(EndpointsFileTests.fault(file)?.hasSuffix(fault) == true, "\(EndpointsFileTests.fault(file) ?? "accepted")")
    }
}

/// A JSON string literal of `text`, for building files in tests.
private func JSONString(_ text: String) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]).dropFirst().dropLast(), as: UTF8.self)
}
