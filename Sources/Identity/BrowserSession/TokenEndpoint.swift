import JSONCoding
import UpstreamKit

/// The messages this confidential client sends to the provider's token and revocation endpoints, and
/// the token response it reads back (RFC 6749 §4.1.3, §5.1, §6; RFC 7636 §4.5; RFC 7009 §2.1), with the
/// client authenticated by its secret or by a signed assertion (RFC 7523 §2.2, OpenID Connect Core §9).
///
/// Pure but for each assertion's random `jti`: building a request and reading an answer; sending them is the gateway's.
public struct TokenEndpoint: Sendable {
    /// How the client proves itself at the token endpoint (RFC 6749 §2.3, OpenID Connect Core §9), by
    /// the names of `token_endpoint_auth_methods_supported`.
    public enum ClientAuthentication: String, Sendable, CaseIterable {
        /// `Authorization: Basic` of the form-encoded id and secret: the default, as the specification prefers.
        case clientSecretBasic = "client_secret_basic"
        /// `client_id` and `client_secret` in the form body, for providers that only take that.
        case clientSecretPost = "client_secret_post"
        /// A JWT signed with the client's private key (`client_assertion`); no secret travels.
        case privateKeyJWT = "private_key_jwt"
    }

    /// What the client proves itself with, and how; never logged.
    public enum Credential: Sendable {
        /// A shared secret in `Authorization: Basic`.
        case secretBasic(String)
        /// A shared secret in the form body.
        case secretPost(String)
        /// A private key that signs an assertion for each call.
        case privateKeyJWT(ClientAssertion)

        /// The method's registered name.
        public var authentication: ClientAuthentication {
            switch self {
            case .secretBasic: .clientSecretBasic
            case .secretPost: .clientSecretPost
            case .privateKeyJWT: .privateKeyJWT
            }
        }
    }

    /// A form request: its fields (`Authorization` among them for basic authentication) and its body.
    public struct FormRequest: Sendable, Equatable {
        /// Header fields to send, `Content-Type` and `Accept` included.
        public let headers: [(name: String, value: String)]
        /// The `application/x-www-form-urlencoded` body.
        public let body: [UInt8]

        public static func == (left: FormRequest, right: FormRequest) -> Bool {
            left.body == right.body && left.headers.elementsEqual(right.headers) { $0.name == $1.name && $0.value == $1.value }
        }
    }

    /// What one call asks, before the client's authentication is added (`request(_:audience:now:)`).
    public struct Grant: Sendable {
        let fields: [(String, String)]

        /// Exchanges an authorization `code` with the PKCE `codeVerifier`, for `redirectURI`.
        public static func codeExchange(code: String, codeVerifier: String, redirectURI: String) -> Grant {
            Grant(fields: [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", codeVerifier)])
        }

        /// Asks for fresh tokens with `refreshToken`.
        public static func refresh(_ refreshToken: String) -> Grant {
            Grant(fields: [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        }

        /// Revokes `refreshToken` (RFC 7009), which also ends the access tokens made from it at most providers.
        public static func revocation(of refreshToken: String) -> Grant {
            Grant(fields: [("token", refreshToken), ("token_type_hint", "refresh_token")])
        }
    }

    /// What the token endpoint answered with success.
    public struct Tokens: Sendable, Equatable {
        /// The access token, sent upstream as a bearer token.
        public let accessToken: String
        /// Seconds the access token lives, when the provider says.
        public let expiresIn: Double?
        /// A refresh token, when one was issued (or a rotated one on refresh).
        public let refreshToken: String?
        /// The ID token: always at sign-in, sometimes on refresh.
        public let idToken: String?
    }

    /// Why a token response was refused: the provider's `error` code (never its description, which
    /// may echo input), or a malformed answer.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// This client's `client_id`.
    public let clientID: String
    /// Its secret or key; never logged.
    let credential: Credential

    /// The client `clientID`, proving itself with `credential`.
    public init(clientID: String, credential: Credential) {
        self.clientID = clientID
        self.credential = credential
    }

    /// How it proves itself.
    public var authentication: ClientAuthentication { credential.authentication }

    /// The JWS algorithm of its assertions (`RS256`, `PS256`, `ES256`); nil when it sends a secret.
    public var assertionAlgorithm: String? {
        guard case .privateKeyJWT(let assertion) = credential else { return nil }
        return assertion.algorithm
    }

    /// The largest token response read.
    public static let maximumResponseBytes = 64 << 10

    /// The form that sends `grant` to the endpoint at `audience` (the token endpoint's URL, which an
    /// assertion names as its `aud`), with the client's authentication as of `now` (seconds since 1970).
    public func request(_ grant: Grant, audience: String, now: Double) -> FormRequest {
        var fields = grant.fields
        var headers = [(name: "Content-Type", value: "application/x-www-form-urlencoded"), (name: "Accept", value: "application/json")]
        switch credential {
        case .secretPost(let secret):
            fields += [("client_id", clientID), ("client_secret", secret)]
        case .secretBasic(let secret):
            // RFC 6749 §2.3.1: each part form-encoded before base64.
            let pair = Array((Self.formEncoded(clientID) + ":" + Self.formEncoded(secret)).utf8)
            headers.append((name: "Authorization", value: "Basic " + Self.base64(pair)))
        case .privateKeyJWT(let assertion):
            // RFC 7521 §4.2: client_id is optional beside an assertion; sent, as some providers look the client up by it.
            let token = assertion.token(clientID: clientID, audience: audience, now: now, jti: ProofKey.randomToken())
            fields += [("client_id", clientID), ("client_assertion_type", ClientAssertion.type), ("client_assertion", token)]
        }
        let body = fields.map { Self.formEncoded($0.0) + "=" + Self.formEncoded($0.1) }.joined(separator: "&")
        return FormRequest(headers: headers, body: Array(body.utf8))
    }

    /// Reads the token endpoint's answer of `status` with `body`: the tokens of a 200, or the failure.
    public static func tokens(status: Int, body: [UInt8]) throws(Failure) -> Tokens {
        struct Answer: Decodable {
            var access_token: String?
            var token_type: String?
            var expires_in: Double?
            var refresh_token: String?
            var id_token: String?
            var error: String?
        }
        let answer = try? JSONByteDecoder().decode(Answer.self, from: body)
        guard status == 200 else {
            // Only the registered error code, and only when it is a plain token (RFC 6749 §5.2).
            let code = answer?.error.flatMap { $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") } ? $0 : nil }
            throw Failure(description: "the token endpoint answered \(status)" + (code.map { " (\($0))" } ?? ""))
        }
        guard let answer else { throw Failure(description: "the token endpoint's answer is not a JSON object of the registered fields") }
        guard let accessToken = answer.access_token, BearerToken.isUsable(accessToken) else {
            throw Failure(description: "the token endpoint's answer has no usable access_token")
        }
        guard answer.token_type?.lowercased() == "bearer" else { throw Failure(description: "the token endpoint's token_type is not Bearer") }
        if let refresh = answer.refresh_token, !BearerToken.isUsable(refresh) {
            throw Failure(description: "the token endpoint's refresh_token is not a usable token")
        }
        return Tokens(
            accessToken: accessToken, expiresIn: answer.expires_in.map { max(0, $0) }, refreshToken: answer.refresh_token, idToken: answer.id_token)
    }

    static func formEncoded(_ text: String) -> String { AuthorizationRequest.formEncoded(text) }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << UInt32(16 - 8 * offset) }
            for position in 0..<4 {
                output.append(position <= chunk.count ? alphabet[Int(value >> UInt32(18 - 6 * position) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
