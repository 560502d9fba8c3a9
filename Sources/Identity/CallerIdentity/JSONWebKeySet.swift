import JSONCoding

/// The verification keys of a JWK Set (RFC 7517 §5), by `kid`.
///
/// Only signature keys the gateway can use are kept: `kty` RSA, EC with `crv` P-256, OKP with
/// `crv` Ed25519, without a `use` other than `sig` and without an `alg` other than the one their
/// type verifies. Others (encryption keys, HMAC secrets, other curves) are skipped, as a provider's
/// set may hold them; a usable key type with unusable parameters fails the whole set.
public struct JSONWebKeySet: Sendable {
    struct Key: Sendable {
        let id: String?
        let publicKey: PublicKey
    }

    let keys: [Key]

    /// Why a key set cannot be used; a fixed phrase with a key's position, never key material.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The largest key set document read: a set of a few dozen RSA keys fits many times over.
    public static let maximumBytes = 256 << 10

    /// Parses a JWK Set document.
    ///
    /// - Throws: when it is not a JSON object with a `keys` array, when a usable key's parameters
    ///   are missing or invalid, or when no key is usable.
    public init(parsing bytes: [UInt8]) throws(Invalid) {
        guard bytes.count <= Self.maximumBytes else { throw Invalid(description: "the key set is larger than \(Self.maximumBytes) bytes") }
        let parsed: Result<[Key], Invalid>
        do {
            parsed = try JSONReader.read(bytes, maximumDepth: 16) { document in
                guard let list = document.member("keys", of: document.root), document.kind(of: list) == .array else {
                    return .failure(Invalid(description: "the key set is not a JSON object with a keys array"))
                }
                var keys: [Key] = []
                var failure: Invalid?
                var position = 0
                document.forEachElement(of: list) { element in
                    position += 1
                    guard failure == nil else { return }
                    do throws(Invalid) {
                        if let key = try Self.key(element, in: document, position: position) { keys.append(key) }
                    } catch {
                        failure = error
                    }
                }
                if let failure { return .failure(failure) }
                return .success(keys)
            }
        } catch {
            throw Invalid(description: "the key set is not valid JSON (\(error.message))")
        }
        keys = try parsed.get()
        guard !keys.isEmpty else { throw Invalid(description: "the key set has no RS256, ES256 or EdDSA signature key") }
    }

    /// The number of usable keys.
    public var count: Int { keys.count }

    /// Whether the set has a key with this `kid`.
    func contains(keyID: String) -> Bool {
        keys.contains { $0.id == keyID }
    }

    /// The keys a token signed with `algorithm` may be verified with: the one with its `kid`, or
    /// without a `kid` every key of the algorithm's type.
    func candidates(for algorithm: SignatureAlgorithm, keyID: String?) -> [PublicKey] {
        keys.lazy.filter { key in key.publicKey.algorithm == algorithm && (keyID == nil || key.id == keyID) }.map(\.publicKey)
    }

    private static func key(_ value: JSONReader.Value, in document: JSONReader, position: Int) throws(Invalid) -> Key? {
        func text(_ name: String) -> String? {
            document.member(name, of: value).flatMap(document.string)
        }
        func bytes(_ name: String) throws(Invalid) -> [UInt8] {
            guard let encoded = text(name), let decoded = Base64URL.decode(encoded.utf8) else {
                throw Invalid(description: "key \(position) of the key set has no valid base64url \(name)")
            }
            return decoded
        }
        guard document.kind(of: value) == .object else { throw Invalid(description: "key \(position) of the key set is not an object") }
        guard text("use") ?? "sig" == "sig" else { return nil }
        let algorithm: SignatureAlgorithm
        switch (text("kty"), text("crv")) {
        case ("RSA", _): algorithm = .rs256
        case ("EC", "P-256"): algorithm = .es256
        case ("OKP", "Ed25519"): algorithm = .edDSA
        default: return nil
        }
        if let declared = text("alg"), declared != algorithm.rawValue { return nil }
        let parameters = switch algorithm {
        case .rs256: [try bytes("n"), try bytes("e")]
        case .es256: [try bytes("x"), try bytes("y")]
        case .edDSA: [try bytes("x")]
        }
        let publicKey: PublicKey
        do throws(PublicKey.Invalid) {
            publicKey = switch algorithm {
            case .rs256: try PublicKey(rsaModulus: parameters[0], exponent: parameters[1])
            case .es256: try PublicKey(p256X: parameters[0], y: parameters[1])
            case .edDSA: try PublicKey(ed25519: parameters[0])
            }
        } catch {
            throw Invalid(description: "key \(position) of the key set: \(error)")
        }
        return Key(id: text("kid"), publicKey: publicKey)
    }
}
