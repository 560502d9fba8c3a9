import HTTPBasics

/// Serialises request heads for the client, refusing anything that could inject a line.
public enum RequestHeadWriter {
    /// Appends `METHOD target HTTP/1.1`, `Host`, the fields of `headers`, `Accept-Encoding` and `Content-Length`.
    ///
    /// `Host`, `Content-Length`, `Transfer-Encoding` and `Accept-Encoding` in `headers` are ignored:
    /// the writer sets the others itself, bodies are always sent with a length, and the client
    /// asks only for the content codings it decodes. On error `buffer` holds what it held before.
    ///
    /// - Parameters:
    ///   - target: origin-form, e.g. `/api/people/1/`; visible ASCII only.
    ///   - contentLength: the body size, or nil to send no `Content-Length` (requests without body).
    ///   - acceptsCompression: whether to send `Accept-Encoding: gzip, deflate`; without it the
    ///     request asks for no coding.
    public static func write(
        method: HTTPMethod,
        target: String,
        host: String,
        headers: HTTPHeaders,
        contentLength: Int?,
        acceptsCompression: Bool = false,
        into buffer: inout [UInt8]
    ) throws(RequestHeadError) {
        let start = buffer.count
        // One reservation of the exact size (give or take the length's digits): appending then
        // never reallocates.
        var size = method.rawValue.utf8.count + target.utf8.count + host.utf8.count + 92
        for field in headers { size += field.name.utf8.count + field.value.utf8.count + 4 }
        buffer.reserveCapacity(start + size)
        do throws(RequestHeadError) {
            guard HeadBytes.append(method.rawValue, to: &buffer, where: FieldSyntax.isToken) else { throw .invalidMethod }
            buffer.append(ASCII.space)
            guard HeadBytes.append(target, to: &buffer, where: FieldSyntax.isVisible), !target.isEmpty else { throw .invalidTarget }
            buffer.append(literal: " HTTP/1.1\r\nHost: ")
            guard HeadBytes.append(host, to: &buffer, where: FieldSyntax.isVisible), !host.isEmpty else { throw .invalidHost }
            HeadBytes.appendLineEnd(to: &buffer)
            for field in headers {
                let fieldStart = buffer.count
                guard HeadBytes.append(field.name, to: &buffer, where: FieldSyntax.isToken) else { throw .invalidFieldName }
                buffer.append(ASCII.colon)
                buffer.append(ASCII.space)
                guard HeadBytes.append(field.value, to: &buffer, where: FieldSyntax.isFieldValue) else {
                    throw .invalidFieldValue(name: field.name)
                }
                HeadBytes.appendLineEnd(to: &buffer)
                if isFramingField(field.name) { buffer.removeSubrange(fieldStart...) }
            }
        } catch {
            buffer.removeSubrange(start...)
            throw error
        }
        if acceptsCompression {
            buffer.append(literal: "Accept-Encoding: gzip, deflate\r\n")
        }
        if let contentLength {
            buffer.append(literal: "Content-Length: ")
            DecimalDigits.append(max(contentLength, 0), to: &buffer)
            HeadBytes.appendLineEnd(to: &buffer)
        }
        HeadBytes.appendLineEnd(to: &buffer)
    }

    /// Whether the writer sets the field itself, or never sends it. By length first: most fields
    /// are none of these, and cost one length test each.
    private static func isFramingField(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: name.equalsIgnoringASCIICase("host")
        case 14: name.equalsIgnoringASCIICase("content-length")
        case 15: name.equalsIgnoringASCIICase("accept-encoding")
        case 17: name.equalsIgnoringASCIICase("transfer-encoding")
        default: false
        }
    }
}
