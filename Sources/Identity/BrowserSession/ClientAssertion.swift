import CallerIdentity
import JSONCoding

/// The signed JWT with which this client proves itself by its private key instead of a secret
/// (`private_key_jwt`: OpenID Connect Core 1.0 §9, RFC 7523 §2.2 and §3): `iss` and `sub` are the
/// client id, `aud` the token endpoint's URL, `jti` fresh for each call, and it expires a minute after it is made.
public struct ClientAssertion: Sendable {
    /// The `client_assertion_type` sent with it.
    public static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// Seconds an assertion lives: long enough for one request, short enough that a copy soon dies.
    public static let lifetime = 60

    /// Why a private key was refused; a fixed phrase that never quotes the key.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    let key: SigningKey
    /// The `kid` of the header, naming the key among those the provider holds for this client.
    public let keyID: String?

    /// Signs with the unencrypted PEM private key `pem`: RSA of at least 2048 bits (RS256), RSA-PSS (PS256) or EC P-256 (ES256).
    public init(pem: [UInt8], keyID: String?) throws(Invalid) {
        do {
            key = try SigningKey(pem: pem)
        } catch {
            throw Invalid(description: error.description)
        }
        self.keyID = keyID
    }

    /// The JWS algorithm the key signs with, as the header names it.
    public var algorithm: String { key.algorithm.rawValue }

    /// A compact JWS asserting `clientID` to `audience`, issued at `now` (seconds since 1970) with the unique `jti`.
    public func token(clientID: String, audience: String, now: Double, jti: String) -> String {
        var header = Array(#"{"alg":"\#(key.algorithm.rawValue)","typ":"JWT""#.utf8)
        if let keyID {
            header += Array(#","kid":"#.utf8)
            JSONString.append(keyID, to: &header)
        }
        header.append(UInt8(ascii: "}"))
        let issuedAt = Int(now)
        var claims = Array(#"{"iss":"#.utf8)
        JSONString.append(clientID, to: &claims)
        claims += Array(#","sub":"#.utf8)
        JSONString.append(clientID, to: &claims)
        claims += Array(#","aud":"#.utf8)
        JSONString.append(audience, to: &claims)
        claims += Array(#","jti":"#.utf8)
        JSONString.append(jti, to: &claims)
        claims += Array(#","iat":\#(issuedAt),"exp":\#(issuedAt + Self.lifetime)}"#.utf8)
        let signingInput = ProofKey.base64URL(header) + "." + ProofKey.base64URL(claims)
        return signingInput + "." + ProofKey.base64URL(key.sign(Array(signingInput.utf8)))
    }
}
