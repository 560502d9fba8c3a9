import HTTPBasics

/// The bytes a stored answer travels to a `SharedResponseTier` as, and back: a versioned binary
/// layout, pure so that it is tested without a tier. Anything that is not an entry of this
/// version, or is cut short or padded, decodes to nil: a miss, never a crash.
///
/// Layout: the magic `GWC` and a version byte; the request and response times (IEEE 754 bits,
/// big-endian); the status; the header fields; the varying fields; the body. Counts and lengths
/// are 32-bit big-endian. A varying field is its name, a presence byte and, when the request had
/// it, the tier's digest of the entry's key, the name and the value, never the value itself: an
/// upstream that sends `Vary: Authorization` would otherwise put a caller's credential in the
/// tier. An entry is therefore read for one request, whose values must have the same digests,
/// and comes back with that request's values, as the in-memory tier keeps them.
public enum StoredResponseCoding {
    /// The magic and version every entry starts with; another version reads as a miss.
    static let header: [UInt8] = Array("GWC".utf8) + [2]

    /// `stored` as bytes for the tier entry `key`, its varying fields' values as `digest` hashes them.
    public static func encode(_ stored: StoredResponse, key: String, digest: ([UInt8]) -> [UInt8]) -> [UInt8] {
        let response = stored.response
        var bytes = header
        bytes.reserveCapacity(64 + response.body.count + response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 8 })
        append(stored.requestTime.bitPattern, to: &bytes)
        append(stored.responseTime.bitPattern, to: &bytes)
        append(UInt32(response.status.code), to: &bytes)
        append(UInt32(response.headers.count), to: &bytes)
        for field in response.headers {
            append(Array(field.name.utf8), to: &bytes)
            append(Array(field.value.utf8), to: &bytes)
        }
        append(UInt32(stored.varying.count), to: &bytes)
        for field in stored.varying {
            append(Array(field.name.utf8), to: &bytes)
            bytes.append(field.value == nil ? 0 : 1)
            if let value = field.value { append(digest(digestInput(key: key, name: field.name, value: value)), to: &bytes) }
        }
        append(response.body, to: &bytes)
        return bytes
    }

    /// The stored answer `bytes` encode for the tier entry `key`, selected for `request`: nil when
    /// they are not a whole entry of this version, or when `request`'s varying fields do not have
    /// the digests stored (`CachePolicy.matches`, by digest).
    ///
    /// The tier is not trusted to hold only what this gateway wrote (a Redis others can write to,
    /// or a plaintext link to it): an entry of this version that is cut short, padded, or holds an
    /// answer no cache of this gateway stores (`isServable`: a 1xx such as `101 Switching
    /// Protocols`, a 206 or 304, a field that could split the answer, a hop-by-hop field, or
    /// `Set-Cookie`) is a miss too, and `refused` hears why, to count and report it; an entry of
    /// another layout, as a rolling upgrade leaves, is a miss it does not hear of.
    public static func decode(
        _ bytes: [UInt8], key: String, for request: TransportRequest, digest: ([UInt8]) -> [UInt8],
        refused: (_ reason: String) -> Void = { _ in }
    ) -> StoredResponse? {
        var reader = Reader(bytes: bytes)
        guard reader.take(header.count) == header[...] else { return nil }
        func refuse(_ reason: String) -> StoredResponse? {
            refused(reason)
            return nil
        }
        guard let requestTime = reader.uint64().map(Double.init(bitPattern:)), requestTime.isFinite,
            let responseTime = reader.uint64().map(Double.init(bitPattern:)), responseTime.isFinite,
            let status = reader.uint32(), let fieldCount = reader.uint32()
        else { return refuse("cut short") }
        guard status <= 999, CachePolicy.isStorable(status: Int(status)) else { return refuse("status \(status) is never stored") }
        var headers = HTTPHeaders()
        for _ in 0..<fieldCount {
            guard let name = reader.string(), let value = reader.string() else { return refuse("cut short") }
            let field = HTTPHeaders.Field(name: name, value: value)
            guard field.hasValidSyntax else { return refuse("a field is not valid HTTP") }
            headers.add(name, value)
        }
        guard isServable(headers) else { return refuse("a hop-by-hop field or Set-Cookie") }
        guard let varyingCount = reader.uint32() else { return refuse("cut short") }
        var varying: [StoredResponse.VaryField] = []
        for _ in 0..<varyingCount {
            guard let name = reader.string(), let presence = reader.take(1)?.first, presence <= 1 else { return refuse("cut short") }
            let value = CachePolicy.normalizedValue(of: name, in: request.headers)
            if presence == 1 {
                guard let stored = reader.field() else { return refuse("cut short") }
                guard let value, stored.elementsEqual(digest(digestInput(key: key, name: name, value: value))) else { return nil }
            } else if value != nil {
                return nil
            }
            varying.append(StoredResponse.VaryField(name: name, value: value))
        }
        guard let body = reader.field(), reader.isAtEnd else { return refuse("cut short or padded") }
        return StoredResponse(
            response: Response(status: HTTPStatus(code: Int(status)), headers: headers, body: Array(body)), requestTime: requestTime,
            responseTime: responseTime, varying: varying)
    }

    /// Whether an answer with `headers` could have been stored: none of the fields a cache never
    /// keeps (`CachePolicy.stored` drops the hop-by-hop ones, `mayStore` refuses `Set-Cookie`).
    private static func isServable(_ headers: HTTPHeaders) -> Bool {
        headers.withoutHopByHopFields().count == headers.count && !headers.contains("Set-Cookie")
    }

    /// What a varying field's digest covers: the entry's key (so that equal values have different
    /// digests in different entries), the field's name and its value, each ended by a zero byte.
    private static func digestInput(key: String, name: String, value: String) -> [UInt8] {
        Array(key.utf8) + [0] + Array(name.utf8) + [0] + Array(value.utf8)
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func append(_ field: [UInt8], to bytes: inout [UInt8]) {
        append(UInt32(clamping: field.count), to: &bytes)
        bytes.append(contentsOf: field)
    }

    /// Reads an entry front to back; every read checks the bytes left first, so a count or
    /// length from a corrupt entry never reads past the end or allocates for it.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - index >= count else { return nil }
            defer { index += count }
            return bytes[index..<index + count]
        }

        mutating func uint64() -> UInt64? {
            take(8)?.reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func uint32() -> UInt32? {
            take(4)?.reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func field() -> ArraySlice<UInt8>? {
            guard let length = uint32() else { return nil }
            return take(Int(length))
        }

        mutating func string() -> String? {
            field().flatMap { String(validating: $0, as: UTF8.self) }
        }
    }
}
