/// Read access to the values of a validated JSON document, for callers that pick a few values
/// by key and index without decoding a model (the gateway's endpoints file and its templates).
///
/// The document is validated and indexed into the decoder's tape in one pass; the reader then
/// looks values up on the tape and copies them out as Swift values or as compact JSON text. It
/// holds pointers to the bytes and the tape, so it exists only inside the closure given to
/// `read`, and neither it nor its `Value`s are meaningful after it returns.
///
/// ```swift
/// let name = try JSONReader.read(body) { document in
///     document.member("name", of: document.root).flatMap(document.string)
/// }
/// ```
package struct JSONReader {
    /// A value's place in the document.
    package struct Value: Equatable {
        fileprivate let index: Int
    }

    /// The JSON type of a value.
    package enum Kind: Equatable {
        case object, array, string, number, bool, null
    }

    private let tape: UnsafeBufferPointer<TapeEntry>
    private let base: UnsafePointer<UInt8>

    /// Validates `bytes` (strict RFC 8259, as the decoder) and runs `body` with a reader over them.
    ///
    /// - Throws: the decoder's error for invalid JSON, with the byte offset of the fault, or for
    ///   nesting deeper than `maximumDepth`.
    package static func read<Result>(
        _ bytes: [UInt8], maximumDepth: Int = JSONByteDecoder.maximumDepth, _ body: (JSONReader) -> Result
    ) throws(JSONDecodingError) -> Result {
        let outcome: Swift.Result<Result, JSONDecodingError> = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return .failure(JSONDecodingError(reason: .invalidSyntax, message: "the document is empty", byteOffset: 0))
            }
            let tape: UnsafeMutableBufferPointer<TapeEntry>
            do throws(JSONDecodingError) {
                tape = try TapeParser.parse(base, count: buffer.count, maximumDepth: maximumDepth)
            } catch {
                return .failure(error)
            }
            defer { tape.deallocate() }
            return .success(body(JSONReader(tape: UnsafeBufferPointer(tape), base: base)))
        }
        return try outcome.get()
    }

    /// The document's top-level value.
    package var root: Value { Value(index: 0) }

    package func kind(of value: Value) -> Kind {
        switch tape[value.index].kind {
        case .object: .object
        case .array: .array
        case .string: .string
        case .number: .number
        case .true, .false: .bool
        case .null: .null
        }
    }

    // MARK: Containers

    /// The value of the first member named `key` of an object; nil when absent or not an object.
    package func member(_ key: String, of object: Value) -> Value? {
        let entry = tape[object.index]
        guard entry.kind == .object else { return nil }
        var key = key
        return key.withUTF8 { key in
            var index = object.index + 1
            let end = Int(entry.end)
            while index < end {
                if keyEquals(tape[index], key) { return Value(index: index + 1) }
                index = self.index(after: index + 1)
            }
            return nil
        }
    }

    /// The members of an object in document order (empty for other kinds).
    package func members(of object: Value) -> [(key: String, value: Value)] {
        let entry = tape[object.index]
        guard entry.kind == .object else { return [] }
        var members: [(key: String, value: Value)] = []
        members.reserveCapacity(Int(entry.length))
        var index = object.index + 1
        while index < Int(entry.end) {
            members.append((unescapedString(tape[index]), Value(index: index + 1)))
            index = self.index(after: index + 1)
        }
        return members
    }

    /// The number of elements of an array or members of an object; 0 for other kinds.
    package func count(of container: Value) -> Int {
        let entry = tape[container.index]
        return entry.isContainer ? Int(entry.length) : 0
    }

    /// The element at `position` of an array; nil when out of range or not an array.
    package func element(_ position: Int, of array: Value) -> Value? {
        let entry = tape[array.index]
        guard entry.kind == .array, position >= 0, position < Int(entry.length) else { return nil }
        var index = array.index + 1
        for _ in 0..<position { index = self.index(after: index) }
        return Value(index: index)
    }

    /// Calls `body` with each element of an array, in order (never for other kinds).
    package func forEachElement(of array: Value, _ body: (Value) -> Void) {
        let entry = tape[array.index]
        guard entry.kind == .array else { return }
        var index = array.index + 1
        while index < Int(entry.end) {
            body(Value(index: index))
            index = self.index(after: index)
        }
    }

    /// The tape index just past the value at `index`, skipping a container whole.
    private func index(after index: Int) -> Int {
        let entry = tape[index]
        return entry.isContainer ? Int(entry.end) : index + 1
    }

    // MARK: Scalars

    /// The text of a string, unescaped; nil for other kinds.
    package func string(_ value: Value) -> String? {
        let entry = tape[value.index]
        guard entry.kind == .string else { return nil }
        return unescapedString(entry)
    }

    /// A number as written in the document (`12`, `-0.5e3`); nil for other kinds.
    package func numberText(_ value: Value) -> String? {
        let entry = tape[value.index]
        guard entry.kind == .number else { return nil }
        return String(decoding: content(of: entry), as: UTF8.self)
    }

    /// A number written without fraction or exponent that fits in `Int`; nil otherwise.
    package func integer(_ value: Value) -> Int? {
        let entry = tape[value.index]
        guard entry.kind == .number, !entry.hasEscapesOrFraction else { return nil }
        return Int(String(decoding: content(of: entry), as: UTF8.self))
    }

    package func bool(_ value: Value) -> Bool? {
        switch tape[value.index].kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    // MARK: Writing

    /// Appends `value` as compact JSON: no whitespace; strings and numbers exactly as the
    /// document writes them (already valid JSON). Iterative, so any depth the parser admitted is fine.
    package func writeJSON(_ value: Value, to bytes: inout [UInt8]) {
        // Per open container: where it ends on the tape, whether it is an object, and whether
        // the next value in it is its first.
        var open: [(end: Int, isObject: Bool, isFirst: Bool)] = []
        var index = value.index
        let last = self.index(after: value.index)
        while index < last {
            while let top = open.last, index == top.end {
                bytes.append(top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                open.removeLast()
            }
            if let top = open.last {
                if !top.isFirst { bytes.append(UInt8(ascii: ",")) }
                open[open.count - 1].isFirst = false
                if top.isObject {
                    writeToken(tape[index], to: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    index += 1
                }
            }
            let entry = tape[index]
            if entry.isContainer {
                bytes.append(entry.kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
                open.append((Int(entry.end), entry.kind == .object, true))
            } else {
                writeToken(entry, to: &bytes)
            }
            index += 1
        }
        while let top = open.popLast() {
            bytes.append(top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    private func writeToken(_ entry: TapeEntry, to bytes: inout [UInt8]) {
        switch entry.kind {
        case .string:
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: content(of: entry))
            bytes.append(UInt8(ascii: "\""))
        case .number: bytes.append(contentsOf: content(of: entry))
        case .true: bytes.append(contentsOf: "true".utf8)
        case .false: bytes.append(contentsOf: "false".utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .object, .array: break
        }
    }

    // MARK: Bytes

    private func content(of entry: TapeEntry) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + Int(entry.offset), count: Int(entry.length))
    }

    private func unescapedString(_ entry: TapeEntry) -> String {
        StringUnescaping.string(from: content(of: entry), hasEscapes: entry.hasEscapesOrFraction)
    }

    private func keyEquals(_ entry: TapeEntry, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        if entry.hasEscapesOrFraction { return unescapedString(entry).utf8.elementsEqual(key) }
        guard Int(entry.length) == key.count else { return false }
        let bytes = base + Int(entry.offset)
        for offset in 0..<key.count where bytes[offset] != key[offset] {
            return false
        }
        return true
    }
}
