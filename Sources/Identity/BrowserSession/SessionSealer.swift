import COpenSSL
import CallerIdentity

/// Seals session records for a store other processes can read (Redis): AES-256-GCM with a key
/// from the environment, so that a reader of the store sees neither tokens nor claims and cannot
/// forge or alter a record without the key.
///
/// A sealed record is a version byte, the key's 4-byte fingerprint, a random 96-bit nonce, the
/// ciphertext and the 16-byte tag. The version, the fingerprint and the session id are the
/// associated data: a record copied under another session's id, or with its header changed, does
/// not open. Records open with the current key or the previous one, so that keys rotate without
/// signing everybody out: set the new key as current and the old one as previous, and once every
/// session sealed with the old one has ended (the absolute lifetime), drop it.
public struct SessionSealer: Sendable {
    /// A 256-bit key and its fingerprint.
    public struct Key: Sendable, Equatable {
        let bytes: [UInt8]
        let fingerprint: [UInt8]

        /// The key `text` spells: 32 bytes in base64 or base64url, padded or not.
        ///
        /// - Throws: `KeyError` for anything else; its description never quotes the text.
        public init(parsing text: String) throws(KeyError) {
            let normalized = text.utf8.compactMap { byte -> UInt8? in
                switch byte {
                case UInt8(ascii: "+"): UInt8(ascii: "-")
                case UInt8(ascii: "/"): UInt8(ascii: "_")
                case UInt8(ascii: "="): nil
                default: byte
                }
            }
            guard let bytes = Base64URL.decode(normalized) else { throw .notBase64 }
            guard bytes.count == 32 else { throw .wrongLength(bytes.count) }
            self.bytes = bytes
            fingerprint = Array(ProofKey.sha256(bytes).prefix(4))
        }
    }

    /// Why a key was refused.
    public enum KeyError: Error, Equatable, CustomStringConvertible {
        /// Not base64 or base64url.
        case notBase64
        /// It decodes to this many bytes, not 32.
        case wrongLength(Int)

        public var description: String {
            switch self {
            case .notBase64: "must be 32 bytes in base64 or base64url (openssl rand -base64 32)"
            case .wrongLength(let count): "must be 32 bytes in base64 or base64url (openssl rand -base64 32); it has \(count)"
            }
        }
    }

    /// Why a sealed record did not open: tampered with, made with an unknown key, or not a record.
    public enum OpenError: Error, Equatable {
        /// Shorter than a header, nonce and tag, or of another version.
        case malformed
        /// Sealed with neither the current key nor the previous one.
        case unknownKey
        /// The tag did not verify: altered, truncated, or sealed for another session id.
        case forged
        /// It verified but does not decode as a record (a record of a later layout).
        case undecodable
    }

    /// The layout of sealed records this version writes.
    static let version: UInt8 = 1
    private static let nonceLength = 12
    private static let tagLength = 16
    private static let headerLength = 1 + 4

    /// Seals with this one.
    public let current: Key
    /// Opens what the key before it sealed, during a rotation.
    public let previous: Key?

    /// A sealer with `current`, which also opens what `previous` sealed.
    public init(current: Key, previous: Key? = nil) {
        self.current = current
        self.previous = previous
    }

    /// `record` sealed with the current key and a fresh nonce, bound to its id.
    public func seal(_ record: SessionRecord) -> [UInt8] {
        seal(SessionRecordCoding.encode(record), boundTo: record.id)
    }

    /// The record `sealed` holds, when it was sealed for session `id` with the current or the
    /// previous key and not altered since.
    public func open(_ sealed: [UInt8], id: String) throws(OpenError) -> SessionRecord {
        guard let record = SessionRecordCoding.decode(try open(sealed, boundTo: id)), record.id == id else { throw .undecodable }
        return record
    }

    /// A pending sign-in sealed for its `__Host-bff-signin` cookie, in base64url: with it the
    /// callback may reach any replica that has the key, and the browser holds it without reading it.
    public func sealForCookie(_ signIn: PendingSignIn) -> String {
        ProofKey.base64URL(seal(SessionRecordCoding.encode(signIn), boundTo: Self.signInContext))
    }

    /// The pending sign-in a cookie of `sealForCookie(_:)` holds.
    public func openCookie(_ text: String) throws(OpenError) -> PendingSignIn {
        guard let sealed = Base64URL.decode(Array(text.utf8)) else { throw .malformed }
        guard let signIn = SessionRecordCoding.decodePendingSignIn(try open(sealed, boundTo: Self.signInContext)) else { throw .undecodable }
        return signIn
    }

    /// What a pending sign-in is sealed for, so that no sealed session passes for one.
    private static let signInContext = "\u{0}pending sign-in"

    /// `plaintext` sealed with the current key and a fresh nonce, bound to `context`.
    private func seal(_ plaintext: [UInt8], boundTo context: String) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<Self.nonceLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let header = [Self.version] + current.fingerprint
        let (ciphertext, tag) = Self.encrypt(plaintext, key: current.bytes, nonce: nonce, associated: header + Array(context.utf8))
        return header + nonce + ciphertext + tag
    }

    /// The plaintext of `sealed`, when it was sealed for `context` with a known key and not altered since.
    private func open(_ sealed: [UInt8], boundTo context: String) throws(OpenError) -> [UInt8] {
        let minimum = Self.headerLength + Self.nonceLength + Self.tagLength
        guard sealed.count >= minimum, sealed[0] == Self.version else { throw .malformed }
        let fingerprint = Array(sealed[1..<Self.headerLength])
        guard let key = [current, previous].compactMap({ $0 }).first(where: { $0.fingerprint == fingerprint }) else { throw .unknownKey }
        let nonce = Array(sealed[Self.headerLength..<(Self.headerLength + Self.nonceLength)])
        let ciphertext = Array(sealed[(Self.headerLength + Self.nonceLength)..<(sealed.count - Self.tagLength)])
        let tag = Array(sealed.suffix(Self.tagLength))
        guard
            let plaintext = Self.decrypt(
                ciphertext, tag: tag, key: key.bytes, nonce: nonce, associated: Array(sealed.prefix(Self.headerLength)) + Array(context.utf8))
        else { throw .forged }
        return plaintext
    }

    /// AES-256-GCM over `plaintext`: the ciphertext and the tag. OpenSSL fails here only without
    /// memory, which a gateway does not survive either; the checks keep a broken library from
    /// sealing with an unset key.
    private static func encrypt(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8]) -> ([UInt8], [UInt8]) {
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("OpenSSL could not allocate a cipher context") }
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: tagLength)
        let succeeded: Bool =
            EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceLength), nil) == 1
            && EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1
            && EVP_EncryptUpdate(context, nil, &length, associated, Int32(associated.count)) == 1
            && EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count)) == 1
        guard succeeded else { fatalError("OpenSSL refused AES-256-GCM encryption") }
        let written = Int(length)
        // GCM writes nothing at the end; the scratch holds what another mode would.
        var rest = [UInt8](repeating: 0, count: 16)
        guard EVP_EncryptFinal_ex(context, &rest, &length) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagLength), &tag) == 1
        else { fatalError("OpenSSL refused AES-256-GCM encryption") }
        return (Array(ciphertext.prefix(written)) + rest.prefix(Int(length)), tag)
    }

    /// The plaintext of `ciphertext`, or nil when the tag does not verify.
    private static func decrypt(_ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], associated: [UInt8]) -> [UInt8]? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var tag = tag
        guard
            EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceLength), nil) == 1,
            EVP_DecryptInit_ex(context, nil, nil, key, nonce) == 1,
            EVP_DecryptUpdate(context, nil, &length, associated, Int32(associated.count)) == 1,
            EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1
        else { return nil }
        let written = Int(length)
        var rest = [UInt8](repeating: 0, count: 16)
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagLength), &tag) == 1,
            EVP_DecryptFinal_ex(context, &rest, &length) == 1
        else { return nil }
        return Array(plaintext.prefix(written)) + rest.prefix(Int(length))
    }
}
