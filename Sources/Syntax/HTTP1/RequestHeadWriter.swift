public import HTTPBasics
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
        // The size first, then every piece checked and copied straight into one allocation of
        // that size: no capacity test or count update per piece, as appending to an array costs.
        let length = contentLength.map { String(max($0, 0)) }
        var size = method.rawValue.utf8.count + target.utf8.count + host.utf8.count + fixedSize
        for field in headers { size += field.name.utf8.count + field.value.utf8.count + 4 }
        if acceptsCompression { size += acceptEncoding.utf8CodeUnitCount }
        if let length { size += contentLengthName.utf8CodeUnitCount + length.utf8.count + 2 }
        var failure: RequestHeadError?
        let head = [UInt8](unsafeUninitializedCapacity: size) { bytes, count in
            var cursor = Cursor(start: bytes.baseAddress!)
            failure = cursor.writeHead(
                method: method, target: target, host: host, headers: headers, contentLength: length, acceptsCompression: acceptsCompression)
            count = failure == nil ? cursor.offset : 0
        }
        if let failure { throw failure }
        if buffer.isEmpty { buffer = head } else { buffer.append(contentsOf: head) }
    }

    /// The bytes of every head besides its parts: `" "`, `" HTTP/1.1\r\nHost: "`, the host's line end and the head's.
    private static let fixedSize = 1 + requestLineEnd.utf8CodeUnitCount + 2 + 2
    private static let requestLineEnd: StaticString = " HTTP/1.1\r\nHost: "
    private static let acceptEncoding: StaticString = "Accept-Encoding: gzip, deflate\r\n"
    private static let contentLengthName: StaticString = "Content-Length: "

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

    /// Writes a head into memory sized for it by `write`.
    private struct Cursor {
        let start: UnsafeMutablePointer<UInt8>
        var offset = 0

        /// Writes the head; returns what was refused, or nil when all of it was written.
        mutating func writeHead(
            method: HTTPMethod, target: String, host: String, headers: HTTPHeaders, contentLength: String?, acceptsCompression: Bool
        ) -> RequestHeadError? {
            guard write(method.rawValue, where: FieldSyntax.isToken) else { return .invalidMethod }
            write(ASCII.space)
            guard !target.isEmpty, write(target, where: FieldSyntax.isVisible) else { return .invalidTarget }
            write(RequestHeadWriter.requestLineEnd)
            guard !host.isEmpty, write(host, where: FieldSyntax.isVisible) else { return .invalidHost }
            writeLineEnd()
            for (index, field) in headers.enumerated() {
                let fieldStart = offset
                // A field checked before (`HTTPHeaders.checkSyntax()`) is copied without a second look.
                let isChecked = headers.isChecked(index)
                guard write(field.name, where: { isChecked || FieldSyntax.isToken($0) }) else { return .invalidFieldName }
                write(ASCII.colon)
                write(ASCII.space)
                guard write(field.value, where: { isChecked || FieldSyntax.isFieldValue($0) }) else {
                    return .invalidFieldValue(name: field.name)
                }
                writeLineEnd()
                // Checked like any other before being dropped, so a forbidden byte fails the head either way.
                if RequestHeadWriter.isFramingField(field.name) { offset = fieldStart }
            }
            if acceptsCompression { write(RequestHeadWriter.acceptEncoding) }
            if let contentLength {
                write(RequestHeadWriter.contentLengthName)
                _ = write(contentLength) { _ in true }
                writeLineEnd()
            }
            writeLineEnd()
            return nil
        }

        /// Writes the UTF-8 of `string` if it passes `isAllowed`; returns whether it did.
        @inline(__always)
        mutating func write(_ string: String, where isAllowed: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            let written = string.utf8.withContiguousStorageIfAvailable { bytes in
                guard isAllowed(bytes) else { return false }
                write(bytes)
                return true
            }
            if let written { return written }
            return Array(string.utf8).withUnsafeBufferPointer { bytes in
                guard isAllowed(bytes) else { return false }
                write(bytes)
                return true
            }
        }

        @inline(__always)
        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress else { return }
            (start + offset).update(from: source, count: bytes.count)
            offset += bytes.count
        }

        @inline(__always)
        mutating func write(_ literal: StaticString) {
            (start + offset).update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
            offset += literal.utf8CodeUnitCount
        }

        @inline(__always)
        mutating func write(_ byte: UInt8) {
            start[offset] = byte
            offset += 1
        }

        @inline(__always)
        mutating func writeLineEnd() {
            write(ASCII.carriageReturn)
            write(ASCII.lineFeed)
        }
    }
}
