import JSONCoding
import Testing

@Suite struct EncoderBehaviourTests {
    struct Optionals: Encodable {
        let present: Int?
        let absent: Int?

        enum CodingKeys: String, CodingKey { case present, absent, skipped }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(present, forKey: .present)
            try container.encode(absent, forKey: .absent)
            try container.encodeIfPresent(absent, forKey: .skipped)
        }
    }

    @Test func encodeWritesNullAndEncodeIfPresentSkips() throws {
        let bytes = try JSONByteEncoder().encode(Optionals(present: 1, absent: nil))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"present":1,"absent":null}"#)
    }

    @Test func keysKeepEncodeOrder() throws {
        struct Unsorted: Encodable { let zeta = 1, alpha = 2, mid = 3 }
        #expect(try JSONByteEncoder().encode(Unsorted()) == #"{"zeta":1,"alpha":2,"mid":3}"#.bytes)
    }

    @Test func appendsToExistingBytes() throws {
        var bytes = "prefix:".bytes
        try JSONByteEncoder().encode([1, 2], into: &bytes)
        #expect(bytes == "prefix:[1,2]".bytes)
    }

    @Test func failureLeavesBytesUnchanged() throws {
        var bytes = "prefix:".bytes
        let error = try #require(throws: JSONEncodingError.self) {
            try JSONByteEncoder().encode(["a": [1, .nan]], into: &bytes)
        }
        #expect(bytes == "prefix:".bytes)
        #expect(error.reason == .nonConformingNumber)
        #expect(error.codingPath == "a[1]")
    }

    @Test func rejectsNonConformingNumbers() throws {
        struct Price: Encodable { let price: Double }
        let error = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode(Price(price: .infinity)) }
        #expect(error.reason == .nonConformingNumber)
        #expect(error.codingPath == "price")
        #expect(throws: JSONEncodingError.self) { try JSONByteEncoder().encode(Float.nan) }
    }

    @Test func topLevelValueMustEncodeSomething() throws {
        let error = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode(Silent()) }
        #expect(error.reason == .emptyValue)
    }

    struct Nested: Encodable {
        enum CodingKeys: String, CodingKey { case meta, list, tail }
        enum MetaKeys: String, CodingKey { case count }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var meta = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
            try meta.encode(2, forKey: .count)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode("a")
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(true)
            var object = list.nestedContainer(keyedBy: MetaKeys.self)
            try object.encode(3, forKey: .count)
            try container.encode("end", forKey: .tail)
        }
    }

    @Test func nestedContainersCloseInOrder() throws {
        #expect(try JSONByteEncoder().encode(Nested()) == #"{"meta":{"count":2},"list":["a",[true],{"count":3}],"tail":"end"}"#.bytes)
    }

    @Test func sameEncoderAskingTwiceContinuesTheObject() throws {
        struct Base: Encodable {
            enum CodingKeys: String, CodingKey { case base }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(1, forKey: .base)
            }
        }
        struct Derived: Encodable {
            enum CodingKeys: String, CodingKey { case derived }
            func encode(to encoder: any Encoder) throws {
                try Base().encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(2, forKey: .derived)
            }
        }
        #expect(try JSONByteEncoder().encode([Derived()]) == #"[{"base":1,"derived":2}]"#.bytes)
    }

    @Test func writingToAClosedContainerIsReported() throws {
        struct OutOfOrder: Encodable {
            enum CodingKeys: String, CodingKey { case first, second }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                var first = container.nestedUnkeyedContainer(forKey: .first)
                try container.encode(1, forKey: .second)
                try first.encode(2)
            }
        }
        let error = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode(OutOfOrder()) }
        #expect(error.reason == .invalidContainerUse)
    }

    @Test func superEncoderIsReportedAsUnsupported() throws {
        struct UsesSuper: Encodable {
            enum CodingKeys: String, CodingKey { case value }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try 1.encode(to: container.superEncoder())
            }
        }
        let error = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode(UsesSuper()) }
        #expect(error.reason == .unsupported)
    }

    @Test func singleValueContainerHoldsOneValue() throws {
        struct Twice: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(1)
                try container.encode(2)
            }
        }
        let error = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode(Twice()) }
        #expect(error.reason == .invalidContainerUse)
    }

    @Test func modelErrorsAreReported() throws {
        struct Refusing: Encodable {
            struct Refusal: Error {}
            func encode(to encoder: any Encoder) throws { throw Refusal() }
        }
        let error = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode([Refusing()]) }
        #expect(error.reason == .invalidValue)
    }

    @Test func largeOutputGrowsTheBuffer() throws {
        let strings = (0..<500).map { "item \($0) with \"quotes\" and \\ and \n" }
        let bytes = try JSONByteEncoder().encode(strings)
        #expect(try JSONByteDecoder().decode([String].self, from: bytes) == strings)
    }
}
