import HTTPBasics

/// Serialises request heads for the client, refusing anything that could inject a line.
public enum RequestHeadWriter {
    /// Appends `METHOD target HTTP/1.1`, `Host`, the fields of `headers` and `Content-Length`.
    ///
    /// `Host`, `Content-Length` and `Transfer-Encoding` in `headers` are ignored: the writer
    /// sets the first two itself and bodies are always sent with a length. On error `buffer`
    /// holds what it held before.
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
        let start = buffer.count
        // One reservation of the exact size (give or take the length's digits): appending then
        // never reallocates.
        var size = method.rawValue.utf8.count + target.utf8.count + host.utf8.count + 60
        for field in headers { size += field.name.utf8.count + field.value.utf8.count + 4 }
        buffer.reserveCapacity(start + size)
        do throws(RequestHeadError) {
            guard append(method.rawValue, to: &buffer, where: ASCII.isToken), !method.rawValue.isEmpty else { throw .invalidMethod }
            buffer.append(ASCII.space)
            guard append(target, to: &buffer, where: ASCII.isVisible), !target.isEmpty else { throw .invalidTarget }
            append(" HTTP/1.1\r\nHost: ", to: &buffer)
            guard append(host, to: &buffer, where: ASCII.isVisible), !host.isEmpty else { throw .invalidHost }
            appendLineEnd(to: &buffer)
            for field in headers {
                let fieldStart = buffer.count
                guard append(field.name, to: &buffer, where: ASCII.isToken), !field.name.isEmpty else { throw .invalidFieldName }
                buffer.append(ASCII.colon)
                buffer.append(ASCII.space)
                guard append(field.value, to: &buffer, where: ASCII.isFieldValueByte) else {
                    throw .invalidFieldValue(name: field.name)
                }
                appendLineEnd(to: &buffer)
                if isFramingField(field.name) { buffer.removeSubrange(fieldStart...) }
            }
        } catch {
            buffer.removeSubrange(start...)
            throw error
        }
        if let contentLength {
            append("Content-Length: ", to: &buffer)
            DecimalDigits.append(max(contentLength, 0), to: &buffer)
            appendLineEnd(to: &buffer)
        }
        appendLineEnd(to: &buffer)
    }

    /// Appends the bytes of `string` while each passes `isAllowed`; returns whether all did.
    /// Strings are contiguous UTF-8 here, so this is one scan and one copy, not a byte-by-byte append.
    private static func append(_ string: String, to buffer: inout [UInt8], where isAllowed: (UInt8) -> Bool) -> Bool {
        let contiguous = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.allSatisfy(isAllowed) else { return false }
            buffer.append(contentsOf: bytes)
            return true
        }
        if let contiguous { return contiguous }
        guard string.utf8.allSatisfy(isAllowed) else { return false }
        buffer.append(contentsOf: string.utf8)
        return true
    }

    /// Two single-byte appends: cheaper than a general `append(contentsOf:)` for so few bytes.
    private static func appendLineEnd(to buffer: inout [UInt8]) {
        buffer.append(ASCII.carriageReturn)
        buffer.append(ASCII.lineFeed)
    }

    private static func append(_ literal: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Compares lengths first: most fields are none of these, and a length test is cheaper than
    /// a case-insensitive comparison.
    private static func isFramingField(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: name.equalsIgnoringASCIICase("host")
        case 14: name.equalsIgnoringASCIICase("content-length")
        case 17: name.equalsIgnoringASCIICase("transfer-encoding")
        default: false
        }
    }
}
