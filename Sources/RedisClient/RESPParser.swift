/// Parses one RESP2 or RESP3 value from the front of the bytes received so far, or says that more
/// bytes are needed; pure, so it is tested on split reads without a server.
///
/// Each call parses from the first byte again: replies the gateway reads are short (a status, a
/// number, one cached answer), and a bulk string that is not complete yet is recognised from its
/// length line alone, so waiting for a large one costs no copying. Every length is bounded before
/// anything is allocated for it.
public struct RESPParser: Sendable {
    /// The largest bulk string accepted.
    public var maximumBulkBytes: Int
    /// The most elements one aggregate may announce.
    public var maximumElements: Int
    /// The deepest nesting of aggregates accepted.
    public var maximumDepth: Int

    /// A parser with the given bounds; the defaults hold any reply the gateway's commands get.
    public init(maximumBulkBytes: Int = 16 << 20, maximumElements: Int = 1 << 16, maximumDepth: Int = 16) {
        self.maximumBulkBytes = maximumBulkBytes
        self.maximumElements = maximumElements
        self.maximumDepth = maximumDepth
    }

    /// The value at the front of `bytes` and how many bytes it took, or nil when `bytes` holds
    /// only part of it.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(RESPParseError) -> (value: RESPValue, length: Int)? {
        var index = 0
        guard let value = try value(in: bytes, at: &index, depth: 0) else { return nil }
        return (value, index)
    }

    /// Convenience over an array, for tests and small buffers.
    public func parse(_ bytes: [UInt8]) throws(RESPParseError) -> (value: RESPValue, length: Int)? {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RESPParseError) in try parse(UnsafeRawBufferPointer(buffer)) }
    }

    private func value(in bytes: UnsafeRawBufferPointer, at index: inout Int, depth: Int) throws(RESPParseError) -> RESPValue? {
        guard index < bytes.count else { return nil }
        let type = bytes[index]
        var cursor = index + 1
        guard let line = try Self.line(in: bytes, from: &cursor) else { return nil }
        let value: RESPValue
        switch type {
        case UInt8(ascii: "+"):
            value = .simpleString(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: "-"):
            value = .error(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: ":"):
            value = .integer(try Self.integer(line))
        case UInt8(ascii: "_"):
            guard line.isEmpty else { throw .malformed("null with a payload") }
            value = .null
        case UInt8(ascii: "#"):
            switch line.count == 1 ? line.first : nil {
            case UInt8(ascii: "t"): value = .boolean(true)
            case UInt8(ascii: "f"): value = .boolean(false)
            default: throw .malformed("boolean is not t or f")
            }
        case UInt8(ascii: ","):
            guard let double = Double(String(decoding: line, as: UTF8.self)) else { throw .malformed("double does not parse") }
            value = .double(double)
        case UInt8(ascii: "("):
            let digits = String(decoding: line, as: UTF8.self)
            guard !digits.isEmpty, digits.drop(while: { $0 == "-" || $0 == "+" }).allSatisfy({ $0.isASCII && $0.isWholeNumber }),
                digits.count < 1024
            else { throw .malformed("big number does not parse") }
            value = .bigNumber(digits)
        case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
            let length = try Self.integer(line)
            if length == -1 && type == UInt8(ascii: "$") {
                value = .null
                break
            }
            guard length >= 0 else { throw .malformed("negative bulk length") }
            guard length <= maximumBulkBytes else { throw .bulkTooLarge(length: Int(length), limit: maximumBulkBytes) }
            let end = cursor + Int(length)
            guard end + 2 <= bytes.count else { return nil }
            guard bytes[end] == 13, bytes[end + 1] == 10 else { throw .malformed("bulk string not followed by CRLF") }
            var payload = Array(UnsafeRawBufferPointer(rebasing: bytes[cursor..<end]))
            cursor = end + 2
            if type == UInt8(ascii: "!") {
                value = .error(String(decoding: payload, as: UTF8.self))
            } else {
                if type == UInt8(ascii: "=") {
                    // A verbatim string starts with its three-letter format and a colon.
                    guard payload.count >= 4, payload[3] == UInt8(ascii: ":") else { throw .malformed("verbatim string without a format") }
                    payload.removeFirst(4)
                }
                value = .bulkString(payload)
            }
        case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "|"):
            let count = try Self.integer(line)
            if count == -1 && type == UInt8(ascii: "*") {
                value = .null
                break
            }
            guard count >= 0 else { throw .malformed("negative aggregate length") }
            guard count <= maximumElements else { throw .tooManyElements(count: Int(count), limit: maximumElements) }
            guard depth < maximumDepth else { throw .nestedTooDeeply(limit: maximumDepth) }
            let isPaired = type == UInt8(ascii: "%") || type == UInt8(ascii: "|")
            let elementCount = Int(count) * (isPaired ? 2 : 1)
            var elements: [RESPValue] = []
            // Reserved as elements arrive, not from the announced count, which could be a lie.
            for _ in 0..<elementCount {
                guard let element = try self.value(in: bytes, at: &cursor, depth: depth + 1) else { return nil }
                elements.append(element)
            }
            if type == UInt8(ascii: "|") {
                // Attributes describe the value that follows them, which is the reply.
                guard let described = try self.value(in: bytes, at: &cursor, depth: depth) else { return nil }
                value = described
            } else {
                value = isPaired ? .map(elements) : .array(elements)
            }
        default:
            throw .unknownType(type)
        }
        index = cursor
        return value
    }

    /// The bytes before the next CRLF from `cursor`, moving `cursor` past it; nil when no CRLF
    /// has arrived yet.
    private static func line(in bytes: UnsafeRawBufferPointer, from cursor: inout Int) throws(RESPParseError) -> UnsafeRawBufferPointer.SubSequence? {
        var end = cursor
        while end < bytes.count, bytes[end] != 13 {
            end += 1
            // No header line of RESP is this long; a stream without CR is not RESP.
            guard end - cursor <= 4096 else { throw .malformed("line without CRLF") }
        }
        guard end + 1 < bytes.count else { return nil }
        guard bytes[end + 1] == 10 else { throw .malformed("CR not followed by LF") }
        let line = bytes[cursor..<end]
        cursor = end + 2
        return line
    }

    private static func integer(_ line: UnsafeRawBufferPointer.SubSequence) throws(RESPParseError) -> Int64 {
        guard let value = Int64(String(decoding: line, as: UTF8.self)) else { throw .malformed("integer does not parse") }
        return value
    }
}
