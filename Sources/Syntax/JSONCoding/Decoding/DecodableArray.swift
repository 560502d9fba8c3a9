/// Arrays that the decoder fills straight from the tape.
///
/// The standard library's `Array.init(from:)` appends element by element through an unkeyed
/// container, so the array regrows (and looks up its generic metadata) at each step. The tape
/// knows the element count, so this reserves once and decodes each element where it sits.
protocol DecodableArray {
    static func decodeElements(from document: DecodingDocument, at index: Int) throws -> Self
}

extension Array: DecodableArray where Element: Decodable {
    static func decodeElements(from document: DecodingDocument, at index: Int) throws -> [Element] {
        try document.requireContainer(.array, at: index)
        let count = document.containerCount(at: index)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var cursor = index + 1
        for _ in 0..<count {
            elements.append(try document.decodeValue(Element.self, at: cursor))
            cursor = document.index(after: cursor)
        }
        return elements
    }
}
