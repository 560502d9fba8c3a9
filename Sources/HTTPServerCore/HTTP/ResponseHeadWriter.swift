import HTTPBasics

/// Serialises response heads for the server.
///
/// The writer owns framing: it writes `Date` (formatted at most once a second), `Content-Length`
/// for every status that allows content, and `Connection` when the connection's fate needs
/// saying, and ignores those fields and `Transfer-Encoding` if a handler set them. A field whose
/// name is not a token or whose value holds CR, LF, NUL or other controls is dropped, so no
/// handler can split the response.
public enum ResponseHeadWriter {
    /// The interim response sent before reading the body of an `Expect: 100-continue` request.
    public static let continueHead: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Appends the head of `response` to `buffer`.
    ///
    /// - Parameters:
    ///   - keepAlive: false adds `Connection: close`.
    ///   - requestVersion: for an HTTP/1.0 request kept alive, `Connection: keep-alive` is added.
    ///   For a response to HEAD, pass the response GET would give: its body sets `Content-Length`.
    public static func write(
        _ response: HTTPResponse,
        keepAlive: Bool,
        requestVersion: HTTPVersion = .http1_1,
        into buffer: inout [UInt8]
    ) {
        buffer.reserveCapacity(buffer.count + 128 + response.headers.count * 32)
        buffer.append(contentsOf: "HTTP/1.1 ".utf8)
        DecimalDigits.append(min(max(response.status.code, 100), 999), to: &buffer)
        buffer.append(ASCII.space)
        if ASCII.isFieldValue(response.status.reasonPhrase) {
            buffer.append(contentsOf: response.status.reasonPhrase.utf8)
        }
        buffer.append(contentsOf: "\r\nDate: ".utf8)
        HTTPDate.appendCurrent(to: &buffer)
        if response.status.allowsContent {
            buffer.append(contentsOf: "\r\nContent-Length: ".utf8)
            DecimalDigits.append(response.body.count, to: &buffer)
        }
        if !keepAlive {
            buffer.append(contentsOf: "\r\nConnection: close".utf8)
        } else if requestVersion == .http1_0 {
            buffer.append(contentsOf: "\r\nConnection: keep-alive".utf8)
        }
        buffer.append(contentsOf: "\r\n".utf8)
        for field in response.headers where isWritable(field) {
            buffer.append(contentsOf: field.name.utf8)
            buffer.append(contentsOf: ": ".utf8)
            buffer.append(contentsOf: field.value.utf8)
            buffer.append(contentsOf: "\r\n".utf8)
        }
        buffer.append(contentsOf: "\r\n".utf8)
    }

    private static func isWritable(_ field: HTTPHeaders.Field) -> Bool {
        guard ASCII.isToken(field.name), ASCII.isFieldValue(field.value) else { return false }
        switch field.name.utf8.count {
        case 4: return !field.name.equalsIgnoringASCIICase("date")
        case 10: return !field.name.equalsIgnoringASCIICase("connection")
        case 14: return !field.name.equalsIgnoringASCIICase("content-length")
        case 17: return !field.name.equalsIgnoringASCIICase("transfer-encoding")
        default: return true
        }
    }
}
