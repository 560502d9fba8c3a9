import HTTPBasics
import Testing

@testable import Gateway

/// The `Authorization` fields a hostile or sloppy client sends: only the first field is read, its
/// scheme in any case (RFC 7235 §2.1), and one without a token counts as no token at all.
@Suite struct BearerTokenFieldTests {
    @Test(arguments: [
        ("Bearer abc.def.ghi", "abc.def.ghi"), ("bearer abc", "abc"), ("BEARER  abc  ", "abc"),
        ("Bearer ", nil), ("Bearer", nil), ("Bearer    ", nil), ("Basic dXNlcjpwYXNz", nil), ("Bearerabc", nil), ("", nil),
    ] as [(String, String?)])
    func tokenOfOneField(value: String, token: String?) {
        #expect(Authenticator.bearerToken(in: ["Authorization": value]).map(String.init) == token)
    }

    @Test func onlyTheFirstFieldIsRead() {
        let two = HTTPHeaders([.init(name: "Authorization", value: "Basic dXNlcjpwYXNz"), .init(name: "authorization", value: "Bearer abc")])
        #expect(Authenticator.bearerToken(in: two) == nil)
        let bearerFirst = HTTPHeaders([.init(name: "authorization", value: "Bearer abc"), .init(name: "Authorization", value: "Bearer xyz")])
        #expect(Authenticator.bearerToken(in: bearerFirst) == "abc")
        #expect(Authenticator.bearerToken(in: [:]) == nil)
    }
}
