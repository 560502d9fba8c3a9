import Foundation
import JMESPath
import Testing

/// The compiler's checks and positions, and what the suites do not cover.
@Suite struct ExpressionTests {
    private func evaluate(_ expression: String, _ json: String) throws -> String {
        try JMESPathExpression(expression).evaluate(on: try JMESPathValue(parsingJSON: Array(json.utf8))).json
    }

    private func error(_ expression: String) -> JMESPathError? {
        do {
            _ = try JMESPathExpression(expression)
            return nil
        } catch {
            return error
        }
    }

    @Test func theIssuesProductPage() throws {
        let context = #"{"catalog":{"price_cents":1234,"stock":7},"reviews":{"items":[{"stars":4,"text":"Lovely"},{"stars":3,"text":"Good"}]}}"#
        #expect(try evaluate("to_string(catalog.price_cents / `100`)", context) == #""12.34""#)
        #expect(try evaluate("catalog.stock > `0`", context) == "true")
        #expect(try evaluate("avg(reviews.items[*].stars)", context) == "3.5")
        #expect(try evaluate("reviews.items[?stars > `3`].text", context) == #"["Lovely"]"#)
    }

    @Test func theDocCommentsExample() throws {
        let expression = try JMESPathExpression("items[?stars > `3`].text | join(', ', @)")
        let document = try JMESPathValue(parsingJSON: Array(#"{"items": [{"stars": 4, "text": "Lovely"}]}"#.utf8))
        #expect(try expression.evaluate(on: document) == .string("Lovely"))
    }

    @Test func compileErrorsNameTheirPosition() {
        #expect(error("a.b |")?.description == "syntax error at position 6: unexpected end of the expression")
        #expect(error("foo(@)")?.kind == .unknownFunction)
        #expect(error("a || length(@, @)")?.position == 5)
        #expect(error("a || length(@, @)")?.kind == .invalidArity)
        #expect(error("$nobody")?.kind == .undefinedVariable)
        #expect(error("`foo`")?.kind == .syntax)
        #expect(throws: Never.self) { try JMESPathExpression("`foo`", allowsLegacyLiterals: true) }
    }

    @Test func runTimeErrorsNameTheirPosition() throws {
        let document = try JMESPathValue(parsingJSON: Array(#"{"a":["x"]}"#.utf8))
        #expect(throws: JMESPathError(.invalidType, "avg() expects an array of numbers as argument 1, not array", at: 5)) {
            try JMESPathExpression("b || avg(a)").evaluate(on: document)
        }
        #expect(throws: JMESPathError(.notANumber, "division by zero", at: 4)) {
            try JMESPathExpression("`1` / `0`").evaluate(on: document)
        }
    }

    @Test func functionsDoNotAllocateWithoutBound() throws {
        let document = try JMESPathValue(parsingJSON: Array(#"{"s":"abcdefgh"}"#.utf8))
        for expression in ["pad_left(s, `100000000000`)", "replace(s, '', pad_left(s, `1000000`))"] {
            #expect(throws: JMESPathError.self) { try JMESPathExpression(expression).evaluate(on: document) }
        }
        #expect(try JMESPathExpression("replace(s, '', '-')").evaluate(on: document) == .string("-a-b-c-d-e-f-g-h-"))
    }

    @Test func deepNestingIsASyntaxErrorNotACrash() {
        for expression in [
            String(repeating: "(", count: 100_000), String(repeating: "!", count: 50_000) + "a", "a" + String(repeating: ".a", count: 30_000),
            String(repeating: "[", count: 50_000), "a" + String(repeating: "|a", count: 30_000), String(repeating: "-", count: 50_000) + "`1`",
        ] {
            #expect(error(expression)?.kind == .syntax)
        }
    }

    @Test func documentFieldsAreTheNamesReadFromTheDocument() throws {
        #expect(try JMESPathExpression("a.b[?c > $.d].e || f(@)".replacingOccurrences(of: "f(@)", with: "length(g)")).documentFields == ["a", "d", "g"])
        #expect(try JMESPathExpression("let $x = a in $x.b").documentFields == ["a"])
        #expect(try JMESPathExpression("sort_by(items, &price)").documentFields == ["items"])
        #expect(try JMESPathExpression("keys(@)").documentFields == nil)
        #expect(try JMESPathExpression("*.a").documentFields == nil)
    }

    @Test func stringsCompareByScalarsNotByCanonicalEquivalence() throws {
        #expect(JMESPathValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(try evaluate("a", #"{"a":1.5e300}"#) == "1.5e+300")
    }
}
