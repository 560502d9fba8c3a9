import Foundation
import Testing

@testable import Gateway

/// `--check` and start-up on the sign-in's variables: one line for each mistake, the secret never shown.
@Suite struct BrowserSignInConfigurationTests {
    static let good = [
        "OIDC_ISSUER": "https://id.example", "OIDC_CLIENT_ID": "app", "OIDC_CLIENT_SECRET": "s3cret-value",
        "OIDC_REDIRECT_URI": "https://app.example/bff/callback",
    ]

    static func check(_ environment: [String: String]) async -> (status: Int32, lines: [String]) {
        await OperatorCommandTests.command(["--check"], environment)
    }

    @Test func goodSettingsShowTheSecretAsSet() async {
        let checked = await Self.check(Self.good)
        #expect(checked.status == 0)
        #expect(checked.lines.contains("  OIDC_CLIENT_SECRET=(set)"))
        #expect(!checked.lines.joined().contains("s3cret-value"))
        #expect(checked.lines.contains { $0.contains("GET /v1/menu") && $0.contains("auth: session (default)") })
    }

    /// The good settings with `OIDC_CLIENT_PRIVATE_KEY_FILE` instead of the secret, its file holding `pem`.
    static func withKey(_ pem: String, _ change: [String: String] = [:], body: ([String: String]) async -> Void) async {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oidc-key-\(UUID().uuidString).pem").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(pem.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var environment = good
        environment["OIDC_CLIENT_SECRET"] = nil
        environment["OIDC_CLIENT_PRIVATE_KEY_FILE"] = path
        for (name, value) in change { environment[name] = value }
        await body(environment)
    }

    /// A P-256 key made for this test by `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`.
    static let ecKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgj6PpTFHljxuC3mRg
        2aXwkjkJc1YoskCEKvhB0qe0piChRANCAATTAfx1poHNORbs0/6Fp3driKL5dNBF
        exyV7Had+krK/Xl8E0/x8L0pkMaqQjJXqwKdi1cDogGfOBQKN1bj52CJ
        -----END PRIVATE KEY-----

        """

    @Test func aPrivateKeyInsteadOfTheSecret() async throws {
        await Self.withKey(Self.ecKey, ["OIDC_CLIENT_KEY_ID": "k1"]) { environment in
            let checked = await Self.check(environment)
            #expect(checked.status == 0, "\(checked.lines)")
            #expect(checked.lines.contains("  OIDC_CLIENT_PRIVATE_KEY_FILE=(set)"))
            #expect(!checked.lines.joined().contains("MIGHAgEAMBMG"))
        }
        let cases: [([String: String], String, String)] = [
            (["OIDC_CLIENT_SECRET": "s"], Self.ecKey, "!configuration error: OIDC_CLIENT_SECRET cannot be set along with private_key_jwt: no secret is sent"),
            (["OIDC_CLIENT_AUTH": "client_secret_basic", "OIDC_CLIENT_SECRET": "s"], Self.ecKey,
             "!configuration error: OIDC_CLIENT_PRIVATE_KEY_FILE goes with OIDC_CLIENT_AUTH=private_key_jwt, not client_secret_basic"),
            ([:], "not a key", "!configuration error: OIDC_CLIENT_PRIVATE_KEY_FILE is not an unencrypted PEM private key"),
            ([:], Self.ecKey.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY"),
             "!configuration error: OIDC_CLIENT_PRIVATE_KEY_FILE is not an unencrypted PEM private key"),
            (["OIDC_CLIENT_PRIVATE_KEY_FILE": "/nonexistent/key.pem"], Self.ecKey, "!configuration error: OIDC_CLIENT_PRIVATE_KEY_FILE cannot be read"),
        ]
        for (change, pem, line) in cases {
            await Self.withKey(pem, change) { environment in
                let checked = await Self.check(environment)
                #expect(checked.status == 2)
                #expect(checked.lines == [line])
            }
        }
        var missing = Self.good
        missing["OIDC_CLIENT_SECRET"] = nil
        missing["OIDC_CLIENT_AUTH"] = "private_key_jwt"
        #expect(await Self.check(missing).lines == ["!configuration error: OIDC_CLIENT_PRIVATE_KEY_FILE must be set for private_key_jwt"])
    }

    @Test func eachMistakeIsOneLine() async {
        let cases: [([String: String], String)] = [
            (["OIDC_CLIENT_SECRET": ""], "!configuration error: OIDC_CLIENT_SECRET is set but empty; unset it to send no credential"),
            (["OIDC_ISSUER": "http://id.example"], "!configuration error: OIDC_ISSUER must be an https URL without credentials, query or fragment (http only on loopback: localhost, 127.x, [::1])"),
            (["OIDC_ISSUER": "id.example"], ""),
            (["OIDC_REDIRECT_URI": "https://app.example/elsewhere"], "!configuration error: OIDC_REDIRECT_URI must end in /bff/callback, where the gateway takes the callback"),
            (["OIDC_CLIENT_AUTH": "private_key_jwt"], ""),
            (["SESSION_COOKIE_SAMESITE": "none"], ""),
            (["UPSTREAM_SWAPI_USER_TOKEN": "on", "UPSTREAM_SWAPI_BEARER_TOKEN": "t"], "!configuration error: UPSTREAM_SWAPI_BEARER_TOKEN cannot be set along with UPSTREAM_SWAPI_USER_TOKEN=on"),
        ]
        for (change, line) in cases {
            var environment = Self.good
            for (name, value) in change { environment[name] = value }
            let checked = await Self.check(environment)
            #expect(checked.status == 2, "\(change)")
            #expect(checked.lines.count == 1, "\(change): \(checked.lines)")
            if !line.isEmpty { #expect(checked.lines == [line]) }
        }
        var missing = Self.good
        missing["OIDC_CLIENT_SECRET"] = nil
        #expect(await Self.check(missing).lines == ["!configuration error: OIDC_CLIENT_SECRET must be set along with OIDC_ISSUER"])
        #expect(await Self.check(["UPSTREAM_SWAPI_USER_TOKEN": "on"]).lines == ["!configuration error: UPSTREAM_SWAPI_USER_TOKEN needs OIDC_ISSUER: users sign in there"])
        #expect(await Self.check(["BFF_CSRF_HEADER": "X-Other"]).lines == ["!configuration error: BFF_CSRF_HEADER needs OIDC_ISSUER, the provider browsers sign in with"])
        #expect(await Self.check(Self.good.merging(["OIDC_ISSUER": "http://127.0.0.1:9000"]) { $1 }).status == 0)
    }
}
