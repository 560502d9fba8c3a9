import RedisClient
import Testing

@Suite("RESP framing")
struct RESPParserTests {
    private let parser = RESPParser()

    private func parse(_ text: String) throws -> RESPValue? {
        try parser.parse(Array(text.utf8))?.value
    }

    @Test("RESP2 values")
    func resp2() throws {
        #expect(try parse("+OK\r\n") == .simpleString("OK"))
        #expect(try parse("-ERR unknown command\r\n") == .error("ERR unknown command"))
        #expect(try parse(":-42\r\n") == .integer(-42))
        #expect(try parse("$5\r\nhe\r\no\r\n") == .bulkString(Array("he\r\no".utf8)))
        #expect(try parse("$0\r\n\r\n") == .bulkString([]))
        #expect(try parse("$-1\r\n") == .null)
        #expect(try parse("*-1\r\n") == .null)
        #expect(try parse("*0\r\n") == .array([]))
        #expect(
            try parse("*3\r\n:1\r\n*2\r\n$1\r\na\r\n$-1\r\n-NOSCRIPT no\r\n")
                == .array([.integer(1), .array([.bulkString([97]), .null]), .error("NOSCRIPT no")]))
    }

    @Test("RESP3 values")
    func resp3() throws {
        #expect(try parse("_\r\n") == .null)
        #expect(try parse("#t\r\n") == .boolean(true))
        #expect(try parse("#f\r\n") == .boolean(false))
        #expect(try parse(",1.5\r\n") == .double(1.5))
        #expect(try parse("(3492890328409238509324850943850943825024385\r\n") == .bigNumber("3492890328409238509324850943850943825024385"))
        #expect(try parse("!11\r\nSYNTAX oops\r\n") == .error("SYNTAX oops"))
        #expect(try parse("=8\r\ntxt:abcd\r\n") == .bulkString(Array("abcd".utf8)))
        #expect(try parse("%1\r\n+server\r\n+redis\r\n") == .map([.simpleString("server"), .simpleString("redis")]))
        #expect(try parse("~2\r\n:1\r\n:2\r\n") == .array([.integer(1), .integer(2)]))
        #expect(try parse(">1\r\n+message\r\n") == .array([.simpleString("message")]))
        #expect(try parse("|1\r\n+key\r\n+value\r\n:7\r\n") == .integer(7))
    }

    @Test("every split of a reply waits for more, then parses to the same value and length")
    func splitReads() throws {
        let wire = Array("*3\r\n$5\r\nhello\r\n*2\r\n:1\r\n_\r\n+OK\r\n:9\r\n".utf8)
        let whole = try #require(try parser.parse(wire))
        #expect(whole.length == wire.count - 4)
        for cut in 0..<whole.length {
            #expect(try parser.parse(Array(wire[..<cut])) == nil, "cut at \(cut)")
        }
        #expect(try parser.parse(Array(wire[..<whole.length]))?.value == whole.value)
    }

    @Test("two pipelined replies parse one after the other")
    func consecutiveReplies() throws {
        let wire = Array("+OK\r\n$3\r\nabc\r\n".utf8)
        let first = try #require(try parser.parse(wire))
        #expect(first.value == .simpleString("OK"))
        let second = try #require(try parser.parse(Array(wire[first.length...])))
        #expect(second.value == .bulkString(Array("abc".utf8)))
        #expect(first.length + second.length == wire.count)
    }

    @Test("a large bulk string waits for its bytes and is bounded before they arrive")
    func largeBulk() throws {
        let payload = [UInt8](repeating: 120, count: 100_000)
        let wire = Array("$100000\r\n".utf8) + payload + [13, 10]
        #expect(try parser.parse(Array(wire.prefix(50_000))) == nil)
        #expect(try parser.parse(wire)?.value == .bulkString(payload))
        let small = RESPParser(maximumReplyBytes: 1000)
        #expect(throws: RESPParseError.bulkTooLarge(length: 100_000, limit: 1000)) { try small.parse(Array("$100000\r\n".utf8)) }
    }

    @Test(
        "bytes that are not RESP fail",
        arguments: [
            "?x\r\n", ":12a\r\n", "$abc\r\n", "$-2\r\n", "$3\r\nabcde\r\n", "#x\r\n", ",nope\r\n", "*-3\r\n", "+OK\rX", "_x\r\n",
            "=3\r\nabc\r\n",
        ])
    func malformed(text: String) {
        #expect(throws: RESPParseError.self) { try parser.parse(Array(text.utf8)) }
    }

    @Test("aggregates are bounded in size and depth")
    func aggregateBounds() {
        let bounded = RESPParser(maximumElements: 4, maximumDepth: 3)
        #expect(throws: RESPParseError.tooManyElements(count: 5, limit: 4)) { try bounded.parse(Array("*5\r\n".utf8)) }
        #expect(throws: RESPParseError.nestedTooDeeply(limit: 3)) { try bounded.parse(Array("*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n".utf8)) }
        #expect(throws: RESPParseError.self) { try parser.parse([UInt8](repeating: 43, count: 5000)) }
    }

    @Test("a chain of attributes is a loop, bounded by the reply's elements and bytes, never a recursion")
    func attributeChains() throws {
        // Issue #30: 800 KB of `|0` markers overflowed the stack when each attribute recursed.
        let chain = [UInt8](String(repeating: "|0\r\n", count: 300_000).utf8)
        #expect(try parser.parse(chain + Array(":7\r\n".utf8))?.value == .integer(7))
        #expect(try parser.parse(chain) == nil)
        let entries = [UInt8](String(repeating: "|1\r\n+k\r\n+v\r\n", count: 40_000).utf8) + Array(":1\r\n".utf8)
        #expect(throws: RESPParseError.tooManyElements(count: 65_538, limit: 65_536)) { try parser.parse(entries) }
        let small = RESPParser(maximumReplyBytes: 1000)
        #expect(throws: RESPParseError.replyTooLarge(limit: 1000)) { try small.parse(chain) }
        #expect(throws: RESPParseError.replyTooLarge(limit: 1000)) { try small.parse(chain + Array(":7\r\n".utf8)) }
        // Attributes describe a value inside an aggregate too, and their elements are not kept.
        #expect(try parser.parse(Array("*2\r\n|1\r\n+ttl\r\n:3\r\n+a\r\n:2\r\n".utf8))?.value == .array([.simpleString("a"), .integer(2)]))
    }

    @Test("depth and element bounds hold for pushes, sets, maps and attributes alike", arguments: ["*", "~", ">", "%", "|"])
    func boundsForEveryAggregate(type: String) {
        let bounded = RESPParser(maximumElements: 8, maximumDepth: 3)
        let nested = String(repeating: "\(type)1\r\n", count: 4) + ":1\r\n"
        #expect(throws: RESPParseError.nestedTooDeeply(limit: 3)) { try bounded.parse(Array(nested.utf8)) }
        let deep = String(repeating: "\(type)1\r\n", count: 100_000)
        #expect(throws: RESPParseError.self) { try parser.parse(Array(deep.utf8)) }
        let wide = String(repeating: "*2\r\n", count: 1) + "\(type)4\r\n"
        #expect(throws: RESPParseError.self) { try RESPParser(maximumElements: 5).parse(Array(wide.utf8)) }
    }

    @Test("a reply is bounded in bytes while it arrives, not only once complete")
    func replyBytes() throws {
        let small = RESPParser(maximumReplyBytes: 100)
        let many = Array(("*1000\r\n" + String(repeating: ":1\r\n", count: 30)).utf8)
        #expect(throws: RESPParseError.replyTooLarge(limit: 100)) { try small.parse(many) }
        #expect(try small.parse(Array("*2\r\n:1\r\n:2\r\n".utf8))?.value == .array([.integer(1), .integer(2)]))
        // Streamed strings and aggregates are not supported: refused, not waited for.
        #expect(throws: RESPParseError.self) { try parser.parse(Array("*?\r\n:1\r\n.\r\n".utf8)) }
        #expect(throws: RESPParseError.self) { try parser.parse(Array("$?\r\n;4\r\nHell\r\n;0\r\n".utf8)) }
    }

    @Test("random bytes never crash the parser: a value, a wait for more, or an error")
    func randomBytes() {
        // A fixed linear congruential sequence: the same bytes on every run.
        var seed: UInt64 = 0x5EED
        func next() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        let alphabet = Array("+-:$*_#,(!=%~>|\r\n0123456789-tf".utf8)
        for _ in 0..<5000 {
            let count = Int(next() % 40)
            let bytes = (0..<count).map { _ in next() % 4 == 0 ? next() : alphabet[Int(next()) % alphabet.count] }
            if let parsed = try? parser.parse(bytes) { #expect(parsed.length <= bytes.count) }
        }
    }

    @Test("a command is an array of bulk strings")
    func commandEncoding() {
        let command = RedisCommand("SET", [Array("k".utf8), [0, 13, 10], Array("PX".utf8), Array("50".utf8)])
        #expect(command.encoded == Array("*5\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\n\u{0}\r\n\r\n$2\r\nPX\r\n$2\r\n50\r\n".utf8))
        #expect(command.name == "SET")
    }
}
