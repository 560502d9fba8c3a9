import Testing

@testable import JSONCoding

@Suite("JSONReader")
struct JSONReaderTests {
    static let document = Array(#" {"a" : [1, -2.5e3, "x\"y\u00e9", true, false, null, {"k\u0041": {}}], "b": "plain", "a": 0} "#.utf8)

    @Test("looks values up by key and index, reads scalars, and writes compact JSON as written")
    func navigation() throws {
        try JSONReader.read(Self.document) { document in
            let array = document.member("a", of: document.root)!
            #expect(document.kind(of: array) == .array)
            #expect(document.count(of: array) == 7)
            #expect(document.integer(document.element(0, of: array)!) == 1)
            #expect(document.integer(document.element(1, of: array)!) == nil)
            #expect(document.numberText(document.element(1, of: array)!) == "-2.5e3")
            #expect(document.string(document.element(2, of: array)!) == "x\"yé")
            #expect(document.bool(document.element(3, of: array)!) == true)
            #expect(document.kind(of: document.element(5, of: array)!) == .null)
            #expect(document.element(7, of: array) == nil)
            #expect(document.member("kA", of: document.element(6, of: array)!) != nil)
            #expect(document.member("b", of: array) == nil)
            #expect(document.members(of: document.root).map(\.key) == ["a", "b", "a"])
            var bytes: [UInt8] = []
            document.writeJSON(document.root, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":[1,-2.5e3,"x\"y\u00e9",true,false,null,{"k\u0041":{}}],"b":"plain","a":0}"#)
            var elements: [String] = []
            document.forEachElement(of: array) { element in
                var bytes: [UInt8] = []
                document.writeJSON(element, to: &bytes)
                elements.append(String(decoding: bytes, as: UTF8.self))
            }
            #expect(elements == ["1", "-2.5e3", #""x\"y\u00e9""#, "true", "false", "null", #"{"k\u0041":{}}"#])
        }
    }

    @Test("refuses invalid JSON and nesting past the limit, with the offset")
    func invalid() {
        #expect(throws: JSONDecodingError.self) { try JSONReader.read(Array("[1,]".utf8)) { _ in () } }
        do {
            try JSONReader.read(Array("[[[]]]".utf8), maximumDepth: 2) { _ in () }
            Issue.record("nesting past the limit was accepted")
        } catch {
            #expect(error.reason == .nestingTooDeep)
        }
    }
}
