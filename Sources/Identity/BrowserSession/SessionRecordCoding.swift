/// A session record (or a pending sign-in) as bytes, for sealing: each text as a 4-byte big-endian length and its UTF-8,
/// each optional as a presence byte before its value, each time as the 8 bytes of its `Double`,
/// in the order of `SessionRecord`'s fields. Only `SessionSealer` reads what it wrote, after the
/// tag verified; decoding still checks every length, so no input makes it read out of bounds.
enum SessionRecordCoding {
    static func encode(_ record: SessionRecord) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            64 + record.id.utf8.count + record.subject.utf8.count + record.claimsJSON.utf8.count + record.idToken.utf8.count
                + record.accessToken.utf8.count + (record.refreshToken?.utf8.count ?? 0))
        append(record.id, to: &bytes)
        append(record.subject, to: &bytes)
        appendOptional(record.providerSessionID, to: &bytes, append)
        append(record.claimsJSON, to: &bytes)
        append(record.idToken, to: &bytes)
        append(record.accessToken, to: &bytes)
        appendOptional(record.accessTokenExpiresAt, to: &bytes, append)
        appendOptional(record.refreshToken, to: &bytes, append)
        append(record.createdAt, to: &bytes)
        append(record.lastSeenAt, to: &bytes)
        return bytes
    }

    /// The record `bytes` holds; nil when they are not exactly one record.
    static func decode(_ bytes: [UInt8]) -> SessionRecord? {
        var reader = Reader(bytes: bytes)
        guard let id = reader.text(), let subject = reader.text(), let providerSessionID = reader.optional({ $0.text() }),
            let claimsJSON = reader.text(), let idToken = reader.text(), let accessToken = reader.text(),
            let accessTokenExpiresAt = reader.optional({ $0.time() }), let refreshToken = reader.optional({ $0.text() }),
            let createdAt = reader.time(), let lastSeenAt = reader.time(), reader.isAtEnd
        else { return nil }
        return SessionRecord(
            id: id, subject: subject, providerSessionID: providerSessionID, claimsJSON: claimsJSON, idToken: idToken,
            accessToken: accessToken, accessTokenExpiresAt: accessTokenExpiresAt, refreshToken: refreshToken, createdAt: createdAt,
            lastSeenAt: lastSeenAt)
    }

    /// A pending sign-in's fields, in the same way.
    static func encode(_ signIn: PendingSignIn) -> [UInt8] {
        var bytes: [UInt8] = []
        for text in [signIn.state, signIn.nonce, signIn.codeVerifier, signIn.returnURL] { append(text, to: &bytes) }
        append(signIn.deadline, to: &bytes)
        return bytes
    }

    /// The pending sign-in `bytes` holds; nil when they are not exactly one.
    static func decodePendingSignIn(_ bytes: [UInt8]) -> PendingSignIn? {
        var reader = Reader(bytes: bytes)
        guard let state = reader.text(), let nonce = reader.text(), let codeVerifier = reader.text(), let returnURL = reader.text(),
            let deadline = reader.time(), reader.isAtEnd
        else { return nil }
        return PendingSignIn(state: state, nonce: nonce, codeVerifier: codeVerifier, returnURL: returnURL, deadline: deadline)
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        let length = UInt32(text.utf8.count)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        bytes.append(contentsOf: text.utf8)
    }

    private static func append(_ time: Double, to bytes: inout [UInt8]) {
        let pattern = time.bitPattern
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: pattern >> UInt64(shift))) }
    }

    private static func appendOptional<Value>(_ value: Value?, to bytes: inout [UInt8], _ appendValue: (Value, inout [UInt8]) -> Void) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        appendValue(value, &bytes)
    }

    /// Reads fields in order, each nil when the bytes end early or say what no record says.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func text() -> String? {
            guard let prefix = take(4) else { return nil }
            let length = prefix.reduce(0) { $0 << 8 | Int($1) }
            guard let utf8 = take(length) else { return nil }
            return String(validating: utf8, as: UTF8.self)
        }

        mutating func time() -> Double? {
            take(8).map { Double(bitPattern: $0.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
        }

        /// `.some(nil)` for an absent value, `.some(value)` for a present one, nil when unreadable.
        mutating func optional<Value>(_ read: (inout Reader) -> Value?) -> Value?? {
            switch take(1)?.first {
            case 0: .some(nil)
            case 1: read(&self).map { .some($0) }
            default: nil
            }
        }
    }
}
