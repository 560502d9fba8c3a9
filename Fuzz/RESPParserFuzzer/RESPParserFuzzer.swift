// libFuzzer entry point for the RESP parser of the Redis client (a reply comes from a server the
// gateway does not control). Built by scripts/fuzz-parser together with the parser's sources,
// outside SwiftPM. Besides "never crashes" (no recursion can overflow the stack: issue #30), it
// checks that no parse claims more bytes than it was given, that every prefix of a complete
// reply asks for more bytes rather than giving a value or an error, and that the bounds of a
// small parser hold.

/// A parser with small bounds, so that the fuzzer reaches each of them with short inputs.
private let small = RESPParser(maximumReplyBytes: 512, maximumElements: 32, maximumDepth: 4)

/// How many values `value` holds, itself and every element at any depth.
private func count(_ value: RESPValue) -> Int {
    var total = 0
    var pending = [value]
    while let next = pending.popLast() {
        total += 1
        switch next {
        case .array(let elements), .map(let elements): pending += elements
        default: break
        }
    }
    return total
}

/// How deep `value` nests aggregates.
private func depth(_ value: RESPValue) -> Int {
    var deepest = 0
    var pending = [(value, 0)]
    while let (next, level) = pending.popLast() {
        deepest = max(deepest, level)
        switch next {
        case .array(let elements), .map(let elements): pending += elements.map { ($0, level + 1) }
        default: break
        }
    }
    return deepest
}

private func check(_ parser: RESPParser, _ bytes: UnsafeRawBufferPointer) {
    guard let parsed = try? parser.parse(bytes) else { return }
    guard parsed.length > 0, parsed.length <= bytes.count, parsed.length <= parser.maximumReplyBytes else {
        fatalError("reply length \(parsed.length) of \(bytes.count)")
    }
    guard count(parsed.value) <= parser.maximumElements + 1, depth(parsed.value) <= parser.maximumDepth else {
        fatalError("a reply past the bounds: \(count(parsed.value)) values, depth \(depth(parsed.value))")
    }
    for prefix in Set([0, parsed.length / 2, parsed.length - 1]) {
        let outcome: String
        do {
            outcome = try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<prefix])).map { "value \($0)" } ?? "more"
        } catch {
            outcome = "error \(error)"
        }
        guard outcome == "more" else { fatalError("the first \(prefix) of \(parsed.length) bytes gave \(outcome)") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESPParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    check(RESPParser(), bytes)
    check(small, bytes)
    return 0
}
