/// Parses one RESP2 or RESP3 value from the front of the bytes received so far, or says that more
/// bytes are needed; pure, so it is tested on split reads without a server.
///
/// Each call parses from the first byte again: replies the gateway reads are short (a status, a
/// number, one cached answer), and a bulk string that is not complete yet is recognised from its
/// length line alone, so waiting for a large one costs no copying. Every length is bounded before
/// anything is allocated for it, and the bounds hold for the reply as a whole, whatever its
/// constructs: its bytes (a reply still incomplete past them is refused), the elements of all its
/// aggregates together (attributes' too), and their nesting. The parser keeps its own stack of
/// open aggregates instead of recursing, so no reply, however built, deepens the thread's stack:
/// an attribute (`|`) describes the value after it at the same depth, and a chain of them is a
/// loop, not a recursion. RESP3's streamed strings and aggregates (`$?`, `*?`) are not supported,
/// and refused as malformed.
public struct RESPParser: Sendable {
    /// The largest reply accepted, in bytes; no bulk string may be longer either.
    public var maximumReplyBytes: Int
    /// The most elements one reply may hold, every aggregate's and attribute's counted together.
    public var maximumElements: Int
    /// The deepest nesting of aggregates accepted.
    public var maximumDepth: Int

    /// A parser with the given bounds; the defaults hold any reply the gateway's commands get.
    public init(maximumReplyBytes: Int = 16 << 20, maximumElements: Int = 1 << 16, maximumDepth: Int = 16) {
        self.maximumReplyBytes = maximumReplyBytes
        self.maximumElements = maximumElements
        self.maximumDepth = maximumDepth
    }

    /// The value at the front of `bytes` and how many bytes it took, or nil when `bytes` holds
    /// only part of it.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(RESPParseError) -> (value: RESPValue, length: Int)? {
        // Whatever follows a reply that is not complete is still that reply.
        func needMore() throws(RESPParseError) -> (value: RESPValue, length: Int)? {
            guard bytes.count <= maximumReplyBytes else { throw .replyTooLarge(limit: maximumReplyBytes) }
            return nil
        }
        var open: [Aggregate] = []
        var cursor = 0
        var elements = 0
        while true {
            guard cursor < bytes.count else { return try needMore() }
            let type = bytes[cursor]
            var next = cursor + 1
            guard let line = try Self.line(in: bytes, from: &next) else { return try needMore() }
            var completed: RESPValue?
            switch type {
            case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
                let length = try Self.integer(line)
                if length == -1 && type == UInt8(ascii: "$") {
                    completed = .null
                    break
                }
                guard length >= 0 else { throw .malformed("negative bulk length") }
                guard length <= maximumReplyBytes else { throw .bulkTooLarge(length: Int(length), limit: maximumReplyBytes) }
                let end = next + Int(length)
                guard end + 2 <= bytes.count else { return try needMore() }
                guard bytes[end] == 13, bytes[end + 1] == 10 else { throw .malformed("bulk string not followed by CRLF") }
                completed = try Self.blob(type, UnsafeRawBufferPointer(rebasing: bytes[next..<end]))
                next = end + 2
            case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "|"):
                let count = try Self.integer(line)
                if count == -1 && type == UInt8(ascii: "*") {
                    completed = .null
                    break
                }
                guard count >= 0 else { throw .malformed("negative aggregate length") }
                let kind = Aggregate.Kind(type)
                guard count <= maximumElements else { throw .tooManyElements(count: Int(count), limit: maximumElements) }
                let announced = Int(count) * (kind == .array ? 1 : 2)
                guard elements + announced <= maximumElements else {
                    throw .tooManyElements(count: elements + announced, limit: maximumElements)
                }
                guard open.count < maximumDepth else { throw .nestedTooDeeply(limit: maximumDepth) }
                elements += announced
                if announced > 0 {
                    open.append(Aggregate(kind: kind, remaining: announced))
                } else if kind != .attribute {
                    completed = kind == .map ? .map([]) : .array([])
                }
            default:
                completed = try Self.simple(type, line)
            }
            cursor = next
            // Hand the finished value to the aggregates it completes, innermost first.
            while let value = completed {
                guard var innermost = open.popLast() else {
                    guard cursor <= maximumReplyBytes else { throw .replyTooLarge(limit: maximumReplyBytes) }
                    return (value, cursor)
                }
                completed = nil
                // An attribute's elements describe the value after it, and are not kept.
                if innermost.kind != .attribute { innermost.elements.append(value) }
                innermost.remaining -= 1
                if innermost.remaining > 0 {
                    open.append(innermost)
                } else {
                    switch innermost.kind {
                    case .array: completed = .array(innermost.elements)
                    case .map: completed = .map(innermost.elements)
                    // Done: the next value, at the attribute's depth, is the one it describes.
                    case .attribute: break
                    }
                }
            }
        }
    }

    /// Convenience over an array, for tests and small buffers.
    public func parse(_ bytes: [UInt8]) throws(RESPParseError) -> (value: RESPValue, length: Int)? {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RESPParseError) in try parse(UnsafeRawBufferPointer(buffer)) }
    }

    /// An aggregate whose elements have not all arrived.
    private struct Aggregate {
        enum Kind {
            /// An array (`*`), set (`~`) or push (`>`).
            case array
            /// A map (`%`): each of its `count` entries is two elements.
            case map
            /// An attribute (`|`): a map describing the value after it.
            case attribute

            init(_ type: UInt8) {
                switch type {
                case UInt8(ascii: "%"): self = .map
                case UInt8(ascii: "|"): self = .attribute
                default: self = .array
                }
            }
        }

        let kind: Kind
        /// Elements still to come.
        var remaining: Int
        /// Reserved as elements arrive, not from the announced count, which could be a lie.
        var elements: [RESPValue] = []
    }

    /// The value of a type whose whole payload is its line.
    private static func simple(_ type: UInt8, _ line: UnsafeRawBufferPointer.SubSequence) throws(RESPParseError) -> RESPValue {
        switch type {
        case UInt8(ascii: "+"):
            return .simpleString(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: "-"):
            return .error(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: ":"):
            return .integer(try integer(line))
        case UInt8(ascii: "_"):
            guard line.isEmpty else { throw .malformed("null with a payload") }
            return .null
        case UInt8(ascii: "#"):
            switch line.count == 1 ? line.first : nil {
            case UInt8(ascii: "t"): return .boolean(true)
            case UInt8(ascii: "f"): return .boolean(false)
            default: throw .malformed("boolean is not t or f")
            }
        case UInt8(ascii: ","):
            guard let double = Double(String(decoding: line, as: UTF8.self)) else { throw .malformed("double does not parse") }
            return .double(double)
        case UInt8(ascii: "("):
            let digits = String(decoding: line, as: UTF8.self)
            guard !digits.isEmpty, digits.drop(while: { $0 == "-" || $0 == "+" }).allSatisfy({ $0.isASCII && $0.isWholeNumber }),
                digits.count < 1024
            else { throw .malformed("big number does not parse") }
            return .bigNumber(digits)
        default:
            throw .unknownType(type)
        }
    }

    /// The value of a bulk string (`$`), blob error (`!`) or verbatim string (`=`) with `payload`.
    private static func blob(_ type: UInt8, _ payload: UnsafeRawBufferPointer) throws(RESPParseError) -> RESPValue {
        switch type {
        case UInt8(ascii: "!"):
            return .error(String(decoding: payload, as: UTF8.self))
        case UInt8(ascii: "="):
            // A verbatim string starts with its three-letter format and a colon.
            guard payload.count >= 4, payload[3] == UInt8(ascii: ":") else { throw .malformed("verbatim string without a format") }
            return .bulkString(Array(payload.dropFirst(4)))
        default:
            return .bulkString(Array(payload))
        }
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
