// libFuzzer entry point for the request head parser, the chunked body decoder and the response
// head parser. Built by scripts/fuzz-parser together with the HTTP sources, outside SwiftPM.
// Besides "never crashes", it checks that feeding a head one byte at a time gives the same
// result as feeding it at once, that no parser claims more bytes than it was given, and that
// the request line quoted for the log of refused requests stays within its bounds.

import HTTP1
import HTTPBasics

/// Parses every pipelined request in `bytes`, decoding chunked bodies, and returns what it saw.
private func parsePipeline(_ bytes: UnsafeRawBufferPointer) -> [String] {
    var parser = RequestHeadParser()
    var outcomes: [String] = []
    var offset = 0
    while offset < bytes.count && outcomes.count < 64 {
        let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
        do {
            guard let parsed = try parser.parse(rest) else {
                outcomes.append("incomplete")
                break
            }
            guard parsed.length > 0, parsed.length <= rest.count else { fatalError("head length \(parsed.length) of \(rest.count)") }
            outcomes.append("\(parsed.head.method) \(parsed.head.path) \(parsed.head.framing)")
            offset += parsed.length
            switch parsed.head.framing {
            case .none:
                break
            case .contentLength(let length):
                offset += min(length, bytes.count - offset)
            case .chunked:
                var decoder = ChunkedBodyDecoder()
                var body: [UInt8] = []
                let result = try decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[offset...]), into: &body)
                guard result.consumed <= bytes.count - offset else { fatalError("chunked decoder overran") }
                offset += result.consumed
                outcomes.append("body \(body.count) \(result.isComplete)")
                if !result.isComplete { return outcomes }
            }
        } catch {
            outcomes.append("error \(error.status.code)")
            break
        }
    }
    return outcomes
}

/// The outcome for the first head when bytes arrive one at a time.
private func parseTrickled(_ bytes: UnsafeRawBufferPointer) -> String {
    var parser = RequestHeadParser()
    for count in 0...bytes.count {
        do {
            if let parsed = try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) {
                return "\(parsed.head.method) \(parsed.head.path) \(parsed.head.framing)"
            }
        } catch {
            return "error \(error.status.code)"
        }
    }
    return "incomplete"
}

private func decodeChunkedInTwoParts(_ bytes: UnsafeRawBufferPointer) {
    var whole = ChunkedBodyDecoder(maximumBodyBytes: 4096)
    var wholeBody: [UInt8] = []
    let wholeResult = try? whole.decode(bytes, into: &wholeBody)

    var split = ChunkedBodyDecoder(maximumBodyBytes: 4096)
    var splitBody: [UInt8] = []
    let middle = bytes.count / 2
    var splitResult: (consumed: Int, isComplete: Bool)?
    if let first = try? split.decode(UnsafeRawBufferPointer(rebasing: bytes[0..<middle]), into: &splitBody) {
        if first.isComplete {
            splitResult = first
        } else if let second = try? split.decode(UnsafeRawBufferPointer(rebasing: bytes[middle...]), into: &splitBody) {
            splitResult = (first.consumed + second.consumed, second.isComplete)
        }
    }
    guard wholeResult?.consumed == splitResult?.consumed, wholeResult?.isComplete == splitResult?.isComplete,
        wholeResult == nil || wholeBody == splitBody
    else { fatalError("chunked decoding depends on how the bytes are split") }
}

/// What the rejected-request log would quote of `bytes`: a method of token bytes only, a target
/// without space, line end or query, each cut to the limit (a replaced invalid byte is 3 bytes).
private func quoteRequestLine(_ bytes: UnsafeRawBufferPointer) {
    let quoted = RejectedRequest(HTTPParseError(status: .badRequest, reason: "fuzz"), requestLine: bytes, peer: nil)
    let limit = 3 * RejectedRequest.maximumQuotedBytes
    if let method = quoted.method, method.isEmpty || method.utf8.count > limit || !method.utf8.allSatisfy(FieldSyntax.isTokenByte) {
        fatalError("quoted method \(method.debugDescription)")
    }
    if quoted.method == nil && quoted.target != nil { fatalError("a target quoted without a method") }
    if let target = quoted.target, target.utf8.count > limit || target.utf8.contains(where: { [0x20, 0x0D, 0x0A, 0x3F].contains($0) }) {
        fatalError("quoted target \(target.debugDescription)")
    }
}

private func parseResponse(_ bytes: UnsafeRawBufferPointer) {
    var parser = ResponseHeadParser()
    if let parsed = try? parser.parse(bytes, requestMethod: .get), parsed.length > bytes.count {
        fatalError("response head length \(parsed.length) of \(bytes.count)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    let pipeline = parsePipeline(bytes)
    if bytes.count <= 8192, let first = pipeline.first, !first.hasPrefix("body") {
        let trickled = parseTrickled(bytes)
        guard trickled == first else { fatalError("byte-by-byte gave \(trickled), whole buffer gave \(first)") }
    }
    decodeChunkedInTwoParts(bytes)
    quoteRequestLine(bytes)
    parseResponse(bytes)
    return 0
}
