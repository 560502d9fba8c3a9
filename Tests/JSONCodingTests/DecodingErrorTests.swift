import JSONCoding
import Testing

/// Errors name the coding path and the problem, and never repeat input content.
@Suite struct DecodingErrorTests {
    struct Hand: Decodable {
        struct Card: Decodable {
            let code: String
        }

        let cards: [Card]
    }

    func failure<T: Decodable>(_ type: T.Type, _ document: String) throws -> JSONDecodingError {
        try #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode(type, from: document.bytes) }
    }

    @Test func typeMismatchNamesThePath() throws {
        let error = try failure(Hand.self, #"{"cards":[{"code":"A"},{"code":"B"},{"code":"C"},{"code":7}]}"#)
        #expect(error.reason == .typeMismatch)
        #expect(error.codingPath == "cards[3].code")
        #expect(error.byteOffset == 57)
        #expect(error.description == "JSON decoding failed at cards[3].code (byte 57): expected a string, found a number")
    }

    @Test func missingKeyNamesThePath() throws {
        let error = try failure(Hand.self, #"{"cards":[{"code":"A"},{"cost":"B"}]}"#)
        #expect(error.reason == .keyNotFound)
        #expect(error.codingPath == "cards[1].code")
        #expect(error.message == "a required key is missing")
    }

    @Test func nullForARequiredValue() throws {
        let error = try failure(Hand.self, #"{"cards":[{"code":null}]}"#)
        #expect(error.reason == .valueNotFound)
        #expect(error.codingPath == "cards[0].code")
    }

    @Test func wrongContainerType() throws {
        let error = try failure(Hand.self, #"{"cards":{"code":"A"}}"#)
        #expect(error.reason == .typeMismatch)
        #expect(error.codingPath == "cards")
        #expect(error.message == "expected an array, found an object")
    }

    @Test func syntaxErrorHasAnOffset() throws {
        let error = try failure(Hand.self, #"{"cards":[{"code":"A"},]}"#)
        #expect(error.reason == .invalidSyntax)
        #expect(error.byteOffset == 23)
    }

    @Test func arrayRunningOutOfElements() throws {
        struct Pair: Decodable {
            let first: Int
            let second: Int

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                first = try container.decode(Int.self)
                second = try container.decode(Int.self)
            }
        }
        let error = try failure(Pair.self, "[1]")
        #expect(error.reason == .valueNotFound)
        #expect(error.codingPath == "[1]")
    }

    @Test func integerFromAFraction() throws {
        struct Count: Decodable { let remaining: Int }
        let error = try failure(Count.self, #"{"remaining":1.0}"#)
        #expect(error.reason == .numberOutOfRange)
        #expect(error.codingPath == "remaining")
    }

    @Test func neverRepeatsInputContent() throws {
        let secret = "Bearer-s3cr3t-token"
        let documents = [
            #"{"cards":[{"code":"\#(secret)"#,
            #"{"cards":[{"code":1}],"\#(secret)":1}"#,
            #"{"cards":[{"\#(secret)":"A"}]}"#,
            #"{"cards":"\#(secret)"}"#,
        ]
        for document in documents {
            let error = try failure(Hand.self, document)
            #expect(!error.description.contains("s3cr3t"), "\(error)")
        }
        // Dictionary keys come from the input, so paths show them only when they look like identifiers.
        let dictionaryError = try failure([String: Int].self, #"{"Bearer s3cr3t token":"x"}"#)
        #expect(dictionaryError.codingPath == "<key>")
        // Enum raw values are quoted by the standard library's own error message; we drop it.
        let enumError = try failure([Draw.Suit].self, #"["HEARTS","s3cr3t"]"#)
        #expect(enumError.reason == .invalidValue)
        #expect(enumError.codingPath == "[1]")
        #expect(!enumError.description.contains("s3cr3t"))
    }

    @Test func modelErrorsAreReported() throws {
        struct Rejecting: Decodable {
            struct Refusal: Error {}
            init(from decoder: any Decoder) throws { throw Refusal() }
        }
        let error = try failure(Rejecting.self, "{}")
        #expect(error.reason == .invalidValue)
        #expect(error.message.contains("Refusal"))
    }
}
