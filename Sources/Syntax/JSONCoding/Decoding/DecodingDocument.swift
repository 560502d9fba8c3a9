import Foundation

/// A parsed document and the input bytes it indexes, shared by the decoder and all its containers
/// during one `decode` call.
///
/// It reads values straight from the bytes: keys are compared as raw UTF-8 against the model's
/// coding keys, strings without escapes become `String`s in one copy, numbers are converted from
/// their digits.
///
/// A one-word handle to storage that `withDocument` keeps on its stack frame: copying it costs no
/// reference counting, and the decoder and unkeyed container stay small enough for Swift to store
/// them inline in `any Decoder` and `any UnkeyedDecodingContainer`. Decoders and containers must
/// therefore not outlive the `decode` call (no `Decodable` type keeps its decoder). Storage
/// accesses are single loads and stores that never span a call into model code.
struct DecodingDocument {
    private struct Storage {
        let tape: UnsafeBufferPointer<TapeEntry>
        let base: UnsafePointer<UInt8>
        /// The object of the last successful key lookup, and the index of the key after the one it
        /// found. Models ask for keys in about the order they appear, so the next lookup starts
        /// there and usually matches at once; this keeps `[String: T]` decoding linear.
        var lastLookupObject = -1
        var nextLookupKey = 0
        /// Built on the first coding path request, so that paths cost O(depth) even for models
        /// that try several types per value (`try?`) on large documents.
        var pathLinks: [PathLink] = []
    }

    /// Where an entry sits: its container, and its position there (the element number in an
    /// array; the tape index of the member's key in an object).
    private struct PathLink {
        static let root = PathLink(parent: .max, position: 0)

        let parent: UInt32
        let position: UInt32
    }

    private let storage: UnsafeMutablePointer<Storage>

    /// Runs `body` with a document over `tape`, whose offsets refer to the bytes at `base`.
    static func withDocument<R>(tape: UnsafeBufferPointer<TapeEntry>, base: UnsafePointer<UInt8>, _ body: (DecodingDocument) throws -> R) rethrows -> R {
        var storage = Storage(tape: tape, base: base)
        return try withUnsafeMutablePointer(to: &storage) { try body(DecodingDocument(storage: $0)) }
    }

    private var tape: UnsafeBufferPointer<TapeEntry> { storage.pointee.tape }
    private var base: UnsafePointer<UInt8> { storage.pointee.base }

    // MARK: Navigation

    /// The number of elements of an array, or members of an object.
    func containerCount(at index: Int) -> Int { Int(tape[index].length) }

    /// The index of the entry after the value at `index` and all its contents.
    func index(after index: Int) -> Int {
        let entry = tape[index]
        return entry.isContainer ? Int(entry.end) : index + 1
    }

    /// The index of the value stored under `key` in the object at `objectIndex`, if any.
    func valueIndex(forKey key: some CodingKey, inObject objectIndex: Int) -> Int? {
        let firstKey = objectIndex + 1
        let end = Int(tape[objectIndex].end)
        guard firstKey < end else { return nil }
        let hintedKey = storage.pointee.nextLookupKey
        let start = storage.pointee.lastLookupObject == objectIndex && hintedKey < end ? hintedKey : firstKey
        var name = key.stringValue
        // Native and small strings hand out their UTF-8 without copying.
        let found: Int? = name.withUTF8 { name in
            var keyIndex = start
            repeat {
                if keyMatches(at: keyIndex, name) { return keyIndex }
                keyIndex = index(after: keyIndex + 1)
                if keyIndex >= end { keyIndex = firstKey }
            } while keyIndex != start
            return nil
        }
        guard let found else { return nil }
        storage.pointee.lastLookupObject = objectIndex
        storage.pointee.nextLookupKey = index(after: found + 1)
        return found + 1
    }

    /// The keys of the object at `objectIndex`, in document order.
    func keys(ofObject objectIndex: Int) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(containerCount(at: objectIndex))
        var keyIndex = objectIndex + 1
        let end = Int(tape[objectIndex].end)
        while keyIndex < end {
            keys.append(string(at: keyIndex))
            keyIndex = index(after: keyIndex + 1)
        }
        return keys
    }

    private func keyMatches(at keyIndex: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = tape[keyIndex]
        if entry.hasEscapesOrFraction {
            return string(at: keyIndex).utf8.elementsEqual(name)
        }
        guard Int(entry.length) == name.count else { return false }
        let bytes = base + Int(entry.offset)
        for offset in 0..<name.count where bytes[offset] != name[offset] {
            return false
        }
        return true
    }

    private func string(at index: Int) -> String {
        let entry = tape[index]
        let content = UnsafeBufferPointer(start: base + Int(entry.offset), count: Int(entry.length))
        return StringUnescaping.string(from: content, hasEscapes: entry.hasEscapesOrFraction)
    }

    private func numberText(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = tape[index]
        return UnsafeBufferPointer(start: base + Int(entry.offset), count: Int(entry.length))
    }

    // MARK: Values

    func isNull(at index: Int) -> Bool { tape[index].kind == .null }

    func decodeString(at index: Int) throws(JSONDecodingError) -> String {
        guard tape[index].kind == .string else { throw mismatch(at: index, expected: "a string") }
        return string(at: index)
    }

    func decodeBool(at index: Int) throws(JSONDecodingError) -> Bool {
        switch tape[index].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(at: index, expected: "a boolean")
        }
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, at index: Int) throws(JSONDecodingError) -> T {
        guard tape[index].kind == .number else { throw mismatch(at: index, expected: "an integer") }
        do {
            return try NumberConversion.integer(numberText(at: index), hasFraction: tape[index].hasEscapesOrFraction)
        } catch .notAnInteger {
            throw failure(.numberOutOfRange, at: index, "expected an integer, found a number with a fraction or exponent")
        } catch {
            throw failure(.numberOutOfRange, at: index, "the number does not fit in \(T.self)")
        }
    }

    func decodeDouble(at index: Int) throws(JSONDecodingError) -> Double {
        guard tape[index].kind == .number else { throw mismatch(at: index, expected: "a number") }
        do {
            return try NumberConversion.double(numberText(at: index))
        } catch {
            throw failure(.numberOutOfRange, at: index, "the number does not fit in Double")
        }
    }

    func decodeFloat(at index: Int) throws(JSONDecodingError) -> Float {
        guard tape[index].kind == .number else { throw mismatch(at: index, expected: "a number") }
        do {
            return try NumberConversion.float(numberText(at: index))
        } catch {
            throw failure(.numberOutOfRange, at: index, "the number does not fit in Float")
        }
    }

    /// Decodes any `Decodable` value; URLs are read from strings, as Foundation's `JSONDecoder` does.
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        if T.self == URL.self {
            return try decodeURL(at: index, as: type)
        }
        // An array is one reference wide; testing the size first keeps the conformance lookup, which
        // costs hundreds of instructions, off most other types.
        if MemoryLayout<T>.size == MemoryLayout<[T]>.size, let arrayType = T.self as? any DecodableArray.Type {
            return try decodeArray(arrayType, at: index, as: type)
        }
        return try T(from: TapeDecoder(document: self, index: index))
    }

    private func decodeArray<Array: DecodableArray, T>(_ arrayType: Array.Type, at index: Int, as type: T.Type) throws -> T {
        // `Array` is `T`, so the cast always succeeds (and costs a metadata comparison).
        guard let array = try Array.decodeElements(from: self, at: index) as? T else {
            throw failure(.invalidValue, at: index, "the array type does not match")
        }
        return array
    }

    // Kept apart so the common path above does not set up the `Optional<T>` the cast needs.
    @inline(never)
    private func decodeURL<T>(at index: Int, as type: T.Type) throws(JSONDecodingError) -> T {
        guard let url = URL(string: try decodeString(at: index)) as? T else {
            throw failure(.invalidValue, at: index, "the string is not a valid URL")
        }
        return url
    }

    /// Checks that the value at `index` is an object or array before a container reads it.
    func requireContainer(_ kind: TapeEntry.Kind, at index: Int) throws(JSONDecodingError) {
        guard tape[index].kind == kind else {
            throw mismatch(at: index, expected: kind == .object ? "an object" : "an array")
        }
    }

    // MARK: Coding paths and errors

    /// The path from the root to the value (or key) at `target`.
    func codingPath(to target: Int) -> [any CodingKey] {
        if storage.pointee.pathLinks.isEmpty {
            storage.pointee.pathLinks = makePathLinks()
        }
        var path: [any CodingKey] = []
        var current = target
        while true {
            let link = storage.pointee.pathLinks[current]
            guard link.parent != PathLink.root.parent else { break }
            let parent = Int(link.parent)
            if tape[parent].kind == .array {
                path.append(IndexOrNameKey(intValue: Int(link.position)))
            } else {
                path.append(IndexOrNameKey(stringValue: string(at: Int(link.position))))
            }
            current = parent
        }
        return path.reversed()
    }

    /// Links every entry to its container in one pass: each container lists its direct children.
    private func makePathLinks() -> [PathLink] {
        var links = [PathLink](repeating: .root, count: tape.count)
        for container in tape.indices where tape[container].isContainer {
            let parent = UInt32(truncatingIfNeeded: container)
            let end = Int(tape[container].end)
            var child = container + 1
            var position: UInt32 = 0
            while child < end {
                if tape[container].kind == .array {
                    links[child] = PathLink(parent: parent, position: position)
                    child = index(after: child)
                    position += 1
                } else {
                    let key = PathLink(parent: parent, position: UInt32(truncatingIfNeeded: child))
                    links[child] = key
                    links[child + 1] = key
                    child = index(after: child + 1)
                }
            }
        }
        return links
    }

    func failure(_ reason: JSONDecodingError.Reason, at index: Int, _ message: String) -> JSONDecodingError {
        JSONDecodingError(
            reason: reason,
            message: message,
            codingPath: CodingPathRendering.render(codingPath(to: index)),
            byteOffset: Int(tape[index].offset)
        )
    }

    func failure(_ reason: JSONDecodingError.Reason, inContainer index: Int, at key: any CodingKey, _ message: String) -> JSONDecodingError {
        JSONDecodingError(
            reason: reason,
            message: message,
            codingPath: CodingPathRendering.render(codingPath(to: index) + [key]),
            byteOffset: Int(tape[index].offset)
        )
    }

    private func mismatch(at index: Int, expected: String) -> JSONDecodingError {
        let found: String
        switch tape[index].kind {
        case .object: found = "an object"
        case .array: found = "an array"
        case .string: found = "a string"
        case .number: found = "a number"
        case .true, .false: found = "a boolean"
        case .null: return failure(.valueNotFound, at: index, "expected \(expected), found null")
        }
        return failure(.typeMismatch, at: index, "expected \(expected), found \(found)")
    }
}
