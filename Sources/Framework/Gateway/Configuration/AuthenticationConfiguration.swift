import CallerIdentity
import Foundation
import NetworkRuntime
import UpstreamKit

/// How the gateway authenticates its clients, from the `AUTH_*` variables: where the keys come
/// from and what every token must say.
struct AuthenticationConfiguration: Sendable {
    /// Where the verification keys come from.
    enum KeySource: Sendable {
        /// `AUTH_JWKS_FILE`, read once at start-up.
        case file(JSONWebKeySet)
        /// `AUTH_JWKS_URL`, fetched through the gateway's pooled client; `tls` for an https URL.
        case url(BaseURL, tls: TLSContext?)
    }

    let keySource: KeySource
    let verifier: TokenVerifier
    /// How long a fetched set is used when its answer gives no `max-age`.
    let refreshInterval: Duration
    /// The least time between fetches for unknown `kid`s, and after a failed fetch.
    let minimumRefreshInterval: Duration

    /// The settings, or nil when neither key set variable is set (no route then requires a token).
    static func read(_ reader: EnvironmentReader) throws(ConfigurationError) -> AuthenticationConfiguration? {
        let file = reader.text(.authenticationKeySetFile), url = reader.text(.authenticationKeySetURL)
        guard !file.isEmpty || !url.isEmpty else {
            for variable in [ConfigurationVariable.authenticationIssuer, .authenticationAudience] where !reader.text(variable).isEmpty {
                throw ConfigurationError(variable: variable.name, problem: "needs AUTH_JWKS_FILE or AUTH_JWKS_URL, which has the keys to check tokens with")
            }
            return nil
        }
        guard file.isEmpty || url.isEmpty else {
            throw ConfigurationError(variable: ConfigurationVariable.authenticationKeySetURL.name, problem: "cannot be set along with AUTH_JWKS_FILE")
        }
        let issuer = try claimValue(.authenticationIssuer, reader)
        let audience = try claimValue(.authenticationAudience, reader)
        let keySource: KeySource
        if !file.isEmpty {
            keySource = .file(try keySet(file))
        } else {
            let baseURL = try reader.baseURL(.authenticationKeySetURL)
            do {
                keySource = .url(baseURL, tls: baseURL.origin.scheme == "https" ? try reader.systemTrust.context() : nil)
            } catch {
                throw ConfigurationError(variable: ConfigurationVariable.authenticationKeySetURL.name, problem: "cannot load the system's trusted certificates (\(error))")
            }
        }
        return AuthenticationConfiguration(
            keySource: keySource,
            verifier: TokenVerifier(
                issuer: issuer, audience: audience, leeway: try reader.milliseconds(.authenticationLeeway, in: 0...600_000),
                maximumBytes: try reader.integer(.authenticationMaximumTokenBytes, in: 1024...65536)),
            refreshInterval: try reader.milliseconds(.authenticationKeySetRefresh, in: 1000...86_400_000),
            minimumRefreshInterval: try reader.milliseconds(.authenticationKeySetMinimumRefresh, in: 0...3_600_000))
    }

    /// The issuer or audience: required, printable ASCII without `"` or `\`, since the audience is
    /// quoted in `WWW-Authenticate`.
    private static func claimValue(_ variable: ConfigurationVariable, _ reader: EnvironmentReader) throws(ConfigurationError) -> String {
        let value = reader.text(variable)
        guard !value.isEmpty else {
            throw ConfigurationError(variable: variable.name, problem: "must be set along with AUTH_JWKS_FILE or AUTH_JWKS_URL")
        }
        guard value.utf8.count <= 1024, value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else {
            throw ConfigurationError(variable: variable.name, problem: "must be printable ASCII without quotes or backslashes, got \(reader.quoted(value, of: variable))")
        }
        return value
    }

    private static func keySet(_ path: String) throws(ConfigurationError) -> JSONWebKeySet {
        let variable = ConfigurationVariable.authenticationKeySetFile.name
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(variable: variable, problem: "names a file that cannot be read: \(path)")
        }
        do {
            return try JSONWebKeySet(parsing: Array(contents))
        } catch {
            throw ConfigurationError(variable: variable, problem: "is not a usable JWK Set: \(error)")
        }
    }
}
