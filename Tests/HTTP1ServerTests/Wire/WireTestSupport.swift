import HTTPBasics

@testable import HTTP1

/// Parses `text` as one buffer.
func parseRequest(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Result<ParsedRequestHead?, HTTPParseError> {
    parseRequest(Array(text.utf8), limits: limits)
}

func parseRequest(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits()) -> Result<ParsedRequestHead?, HTTPParseError> {
    var parser = RequestHeadParser(limits: limits)
    return bytes.withUnsafeBytes { buffer in
        Result { () throws(HTTPParseError) in try parser.parse(buffer) }
    }
}

/// Parses `text` the way a connection receiving one byte per read would: the same parser is
/// handed a buffer that grows by one byte each time.
func parseRequestByteByByte(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Result<ParsedRequestHead?, HTTPParseError> {
    let bytes = Array(text.utf8)
    var parser = RequestHeadParser(limits: limits)
    for count in 1...bytes.count {
        let result = bytes[0..<count].withUnsafeBytes { buffer in
            Result { () throws(HTTPParseError) in try parser.parse(buffer) }
        }
        switch result {
        case .success(nil): continue
        default: return result
        }
    }
    return .success(nil)
}

/// The status a request was refused with, or nil when it parsed.
func refusal(_ text: String) -> Int? {
    if case .failure(let error) = parseRequest(text) { return error.status.code }
    return nil
}

func parseResponse(_ text: String, requestMethod: HTTPMethod = .get) -> Result<ParsedResponseHead?, HTTPParseError> {
    var parser = ResponseHeadParser()
    return Array(text.utf8).withUnsafeBytes { buffer in
        Result { () throws(HTTPParseError) in try parser.parse(buffer, requestMethod: requestMethod) }
    }
}

/// Decodes a chunked body fed `step` bytes at a time, returning the body and the bytes consumed.
func decodeChunked(_ text: String, step: Int = 1 << 30, maximumBodyBytes: Int = 1 << 20) throws -> (body: [UInt8], consumed: Int, isComplete: Bool) {
    let bytes = Array(text.utf8)
    var decoder = ChunkedBodyDecoder(maximumBodyBytes: maximumBodyBytes)
    var body: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
        let end = bytes.count - offset > step ? offset + step : bytes.count
        let result = try bytes[offset..<end].withUnsafeBytes { try decoder.decode($0, into: &body) }
        offset += result.consumed
        if result.isComplete { return (body, offset, true) }
    }
    return (body, offset, false)
}

/// The status a chunked body was refused with, or nil when it decoded.
func chunkedRefusal(_ text: String, step: Int = 1 << 30, maximumBodyBytes: Int = 1 << 20) -> Int? {
    do {
        _ = try decodeChunked(text, step: step, maximumBodyBytes: maximumBodyBytes)
        return nil
    } catch let error as HTTPParseError {
        return error.status.code
    } catch {
        return -1
    }
}
