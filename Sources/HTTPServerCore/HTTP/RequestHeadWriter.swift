import HTTPBasics

/// Serialises request heads for the client, refusing anything that could inject a line.
public enum RequestHeadWriter {
    /// Appends `METHOD target HTTP/1.1`, `Host`, the fields of `headers` and `Content-Length`.
    ///
    /// `Host`, `Content-Length` and `Transfer-Encoding` in `headers` are ignored: the writer
    /// sets the first two itself and bodies are always sent with a length. On error `buffer`
    /// is left as it was.
    ///
    /// - Parameters:
    ///   - target: origin-form, e.g. `/api/people/1/`; visible ASCII only.
    ///   - contentLength: the body size, or nil to send no `Content-Length` (requests without body).
    public static func write(
        method: HTTPMethod,
        target: String,
        host: String,
        headers: HTTPHeaders,
        contentLength: Int?,
        into buffer: inout [UInt8]
    ) throws(RequestHeadError) {
        guard ASCII.isToken(method.rawValue) else { throw .invalidMethod }
        guard !target.isEmpty, target.utf8.allSatisfy(ASCII.isVisible) else { throw .invalidTarget }
        guard !host.isEmpty, host.utf8.allSatisfy(ASCII.isVisible) else { throw .invalidHost }
        for field in headers {
            guard ASCII.isToken(field.name) else { throw .invalidFieldName }
            guard ASCII.isFieldValue(field.value) else { throw .invalidFieldValue(name: field.name) }
        }
        buffer.reserveCapacity(buffer.count + 64 + target.utf8.count + headers.count * 32)
        buffer.append(contentsOf: method.rawValue.utf8)
        buffer.append(ASCII.space)
        buffer.append(contentsOf: target.utf8)
        buffer.append(contentsOf: " HTTP/1.1\r\nHost: ".utf8)
        buffer.append(contentsOf: host.utf8)
        buffer.append(contentsOf: "\r\n".utf8)
        for field in headers where !isFramingField(field.name) {
            buffer.append(contentsOf: field.name.utf8)
            buffer.append(contentsOf: ": ".utf8)
            buffer.append(contentsOf: field.value.utf8)
            buffer.append(contentsOf: "\r\n".utf8)
        }
        if let contentLength {
            buffer.append(contentsOf: "Content-Length: ".utf8)
            DecimalDigits.append(max(contentLength, 0), to: &buffer)
            buffer.append(contentsOf: "\r\n".utf8)
        }
        buffer.append(contentsOf: "\r\n".utf8)
    }

    private static func isFramingField(_ name: String) -> Bool {
        name.equalsIgnoringASCIICase("host") || name.equalsIgnoringASCIICase("content-length")
            || name.equalsIgnoringASCIICase("transfer-encoding")
    }
}
