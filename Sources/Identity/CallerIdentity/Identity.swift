import JSONCoding

/// Who is calling: the claims of a bearer token whose signature, issuer, audience and lifetime
/// the gateway verified.
public struct Identity: Sendable {
    /// `sub`: the caller, unique within the issuer; nil when the token has none.
    public let subject: String?
    /// `iss`, the configured issuer.
    public let issuer: String
    /// `aud`: every audience the token names, the configured one among them.
    public let audience: [String]
    /// The scopes granted: `scope` split at spaces (RFC 8693 §4.2), else the `scp` array; empty when neither.
    public let scopes: [String]
    /// `exp`, in seconds since 1970.
    public let expiresAt: Double
    /// The whole claims set, JSON, for claims of the issuer's own.
    public let claimsJSON: [UInt8]

    /// One claim's value.
    public struct Claim: Sendable, Equatable {
        /// A string as it is, any other value as compact JSON.
        public let text: String
        /// The value as compact JSON.
        public let json: [UInt8]
    }

    /// The top-level claim `name`; nil when the token has no such claim.
    public func claim(_ name: String) -> Claim? {
        try? JSONReader.read(claimsJSON, maximumDepth: Claims.maximumDepth) { document -> Claim? in
            guard let value = document.member(name, of: document.root) else { return nil }
            var json: [UInt8] = []
            document.writeJSON(value, to: &json)
            return Claim(text: document.string(value) ?? String(decoding: json, as: UTF8.self), json: json)
        }
    }

    /// The registered claims the verifier checks, read from the claims set in one pass.
    struct Claims {
        /// Deep enough for any claims set an issuer sends, shallow enough to bound the reading.
        static let maximumDepth = 32

        let subject: String?
        let issuer: String?
        let audience: [String]
        let scopes: [String]
        let expiresAt: Double?
        let notBefore: Double?

        /// - Throws: `.malformed` when the claims set is not a JSON object, or a registered
        ///   claim has the wrong type: `exp`, `nbf` and `iat` must be NumericDates (`NumericDate`).
        init(parsing claims: [UInt8]) throws(TokenRejection) {
            let parsed: Claims?
            do {
                parsed = try JSONReader.read(claims, maximumDepth: Self.maximumDepth) { document -> Claims? in
                    let root = document.root
                    guard document.kind(of: root) == .object else { return nil }
                    func text(_ name: String) -> String?? {
                        guard let value = document.member(name, of: root) else { return .some(nil) }
                        return document.string(value).map { .some($0) }
                    }
                    func date(_ name: String) -> Double?? {
                        guard let value = document.member(name, of: root) else { return .some(nil) }
                        return document.numberText(value).flatMap(NumericDate.seconds).map { .some($0) }
                    }
                    func texts(_ name: String) -> [String]? {
                        guard let value = document.member(name, of: root) else { return [] }
                        if let single = document.string(value) { return [single] }
                        guard document.kind(of: value) == .array else { return nil }
                        var list: [String]? = []
                        document.forEachElement(of: value) { element in
                            if let text = document.string(element) { list?.append(text) } else { list = nil }
                        }
                        return list
                    }
                    guard let subject = text("sub"), let issuer = text("iss"), let audience = texts("aud"), let expiresAt = date("exp"),
                          let notBefore = date("nbf"), date("iat") != nil, let scope = text("scope"), let scp = texts("scp")
                    else { return nil }
                    let scopes = scope.map { $0.split(separator: " ").map(String.init) } ?? scp
                    return Claims(subject: subject, issuer: issuer, audience: audience, scopes: scopes, expiresAt: expiresAt, notBefore: notBefore)
                }
            } catch {
                throw .malformed("the claims are not JSON")
            }
            guard let parsed else { throw .malformed("the claims are not an object with registered claims of their types") }
            self = parsed
        }

        private init(subject: String?, issuer: String?, audience: [String], scopes: [String], expiresAt: Double?, notBefore: Double?) {
            self.subject = subject
            self.issuer = issuer
            self.audience = audience
            self.scopes = scopes
            self.expiresAt = expiresAt
            self.notBefore = notBefore
        }
    }
}

extension Identity {
    /// The identity stated by `claimsJSON`, claims the gateway verified earlier (a signed-in session's
    /// ID token), valid until `expiresAt` (the session's end, not the ID token's `exp`).
    package init(verifiedClaims claimsJSON: [UInt8], expiresAt: Double) throws(TokenRejection) {
        let claims = try Claims(parsing: claimsJSON)
        self.init(
            subject: claims.subject, issuer: claims.issuer ?? "", audience: claims.audience, scopes: claims.scopes, expiresAt: expiresAt,
            claimsJSON: claimsJSON)
    }
}
