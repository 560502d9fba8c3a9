import JSONCoding
import Testing

/// `encode(_:addingMember:strings:)`, with which the gateway adds `degraded` to handlers' bodies.
@Suite struct AddedMemberTests {
    struct Page: Encodable {
        let title: String
        let tags: [String]
        let author: Author?
    }

    struct Author: Encodable {
        let name: String
    }

    private func encoded(_ value: some Encodable, strings: [String]) throws -> String {
        String(decoding: try JSONByteEncoder().encode(value, addingMember: "degraded", strings: strings), as: UTF8.self)
    }

    @Test func memberComesLast() throws {
        let page = Page(title: "Home", tags: ["a"], author: nil)
        #expect(try encoded(page, strings: []) == #"{"title":"Home","tags":["a"],"degraded":[]}"#)
        #expect(try encoded(page, strings: ["author", "tags"]) == #"{"title":"Home","tags":["a"],"degraded":["author","tags"]}"#)
    }

    @Test func closesTheContainersTheLastMemberLeftOpen() throws {
        let page = Page(title: "Home", tags: [], author: Author(name: "Ada"))
        #expect(try encoded(page, strings: ["x"]) == #"{"title":"Home","tags":[],"author":{"name":"Ada"},"degraded":["x"]}"#)
    }

    @Test func stringsAreEscaped() throws {
        #expect(try encoded(["k": 1], strings: ["say \"hi\"\n"]) == #"{"k":1,"degraded":["say \"hi\"\n"]}"#)
    }

    @Test func valueThatEncodesNothingBecomesAnObjectWithTheMember() throws {
        #expect(try encoded(Silent(), strings: []) == #"{"degraded":[]}"#)
    }

    @Test func valueThatIsNotAnObjectIsRefused() throws {
        let error = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode([1, 2], addingMember: "degraded", strings: []) }
        #expect(error.reason == .invalidContainerUse)
        let scalar = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode("text", addingMember: "degraded", strings: []) }
        #expect(scalar.reason == .invalidContainerUse)
    }
}
