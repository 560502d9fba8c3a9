import JSONCoding

/// A JWS in compact serialization (RFC 7515 §7.1), taken apart but not yet verified:
/// `base64url(header).base64url(claims).base64url(signature)`.
///
/// Of the header only `alg`, `kid` and `crit` matter: `jku`, `x5u` and other key-naming members
/// are ignored (RFC 8725 §3.10: never fetch keys a token points to), and `crit` refuses the token,
/// since the gateway implements no extension.
struct CompactToken {
    let algorithm: SignatureAlgorithm
    /// The header's `kid`, an opaque name matched exactly against the key set's.
    let keyID: String?
    /// The claims set, JSON.
    let claims: [UInt8]
    let signature: [UInt8]
    /// The bytes signed: the token up to its second dot.
    let signingInput: ArraySlice<UInt8>

    init(parsing token: [UInt8]) throws(TokenRejection) {
        guard let firstDot = token.firstIndex(of: UInt8(ascii: ".")),
              let secondDot = token[(firstDot + 1)...].firstIndex(of: UInt8(ascii: ".")),
              !token[(secondDot + 1)...].contains(UInt8(ascii: "."))
        else { throw .malformed("it is not three base64url parts separated by dots") }
        guard let header = Base64URL.decode(token[..<firstDot]) else { throw .malformed("the header is not base64url") }
        guard let claims = Base64URL.decode(token[(firstDot + 1)..<secondDot]) else { throw .malformed("the claims are not base64url") }
        guard let signature = Base64URL.decode(token[(secondDot + 1)...]) else { throw .malformed("the signature is not base64url") }
        let fields: (algorithm: String?, keyID: String?, isObject: Bool, hasCritical: Bool)
        do {
            fields = try JSONReader.read(header, maximumDepth: 8) { document in
                let root = document.root
                return (
                    document.member("alg", of: root).flatMap(document.string), document.member("kid", of: root).flatMap(document.string),
                    document.kind(of: root) == .object, document.member("crit", of: root) != nil
                )
            }
        } catch {
            throw .malformed("the header is not JSON")
        }
        guard fields.isObject, let name = fields.algorithm else { throw .malformed("the header is not an object with alg") }
        guard let algorithm = SignatureAlgorithm(rawValue: name), !fields.hasCritical else { throw .unsupportedAlgorithm }
        self.algorithm = algorithm
        keyID = fields.keyID
        self.claims = claims
        self.signature = signature
        signingInput = token[..<secondDot]
    }
}
