/// One command as RESP sends it: an array of bulk strings, the command's name first.
public struct RedisCommand: Sendable {
    /// The command's name, for errors and logs (never its arguments, which may be secrets).
    public let name: String
    /// The command as it goes on the wire.
    public let encoded: [UInt8]

    /// `name` followed by `arguments`, each sent as a binary-safe bulk string.
    public init(_ name: String, _ arguments: [[UInt8]] = []) {
        self.name = name
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + name.utf8.count + arguments.reduce(0) { $0 + $1.count + 16 })
        Self.appendHeader(UInt8(ascii: "*"), arguments.count + 1, to: &bytes)
        Self.appendBulk(Array(name.utf8), to: &bytes)
        for argument in arguments { Self.appendBulk(argument, to: &bytes) }
        encoded = bytes
    }

    /// `name` followed by `arguments` as UTF-8.
    public init(_ name: String, _ arguments: [String]) {
        self.init(name, arguments.map { Array($0.utf8) })
    }

    private static func appendBulk(_ argument: [UInt8], to bytes: inout [UInt8]) {
        appendHeader(UInt8(ascii: "$"), argument.count, to: &bytes)
        bytes.append(contentsOf: argument)
        bytes.append(contentsOf: [13, 10])
    }

    private static func appendHeader(_ type: UInt8, _ count: Int, to bytes: inout [UInt8]) {
        bytes.append(type)
        bytes.append(contentsOf: String(count).utf8)
        bytes.append(contentsOf: [13, 10])
    }
}
