import Testing

@testable import Gateway

@Suite("An origin as CORS_ALLOWED_ORIGINS lists it")
struct WebOriginTests {
    @Test(arguments: [
        ("https://app.example", "https://app.example"),
        ("HTTPS://App.Example", "https://app.example"),
        ("http://127.0.0.1:8200", "http://127.0.0.1:8200"),
        ("http://[::1]:3000", "http://[::1]:3000"),
        ("https://app.example:8443", "https://app.example:8443"),
        ("capacitor://localhost", "capacitor://localhost"),
    ])
    func readsTheFormABrowserSends(text: String, serialized: String) throws {
        #expect(try WebOrigin(text).serialized == serialized)
    }

    @Test(arguments: [
        ("https://app.example/", "has a path"),
        ("https://app.example/app", "has a path"),
        ("https://app.example?x", "has a path"),
        ("https://user@app.example", "has credentials"),
        ("https://app.example:443", "names the default port, which a browser leaves out of Origin; write https://app.example"),
        ("http://app.example:80", "names the default port"),
        ("http://app.example:080", "has no valid port"),
        ("http://app.example:99999", "has no valid port"),
        ("http://app.example:", "has no valid port"),
        ("null", "null is the origin of sandboxed"),
        ("app.example", "is not scheme://host[:port]"),
        ("*", "is not scheme://host[:port]"),
        ("1http://a", "has no valid scheme"),
        ("https://", "has no valid host"),
        ("https://a..b", "has no valid host"),
        ("https://app_example", "has no valid host"),
        ("http://[::1", "has no valid host"),
        ("http://[::1]x", "has no valid host"),
    ])
    func refusesWhatNoBrowserSends(text: String, reason: String) {
        #expect {
            try WebOrigin(text)
        } throws: { error in
            (error as? WebOrigin.Invalid)?.reason.hasPrefix(reason) == true
        }
    }
}
