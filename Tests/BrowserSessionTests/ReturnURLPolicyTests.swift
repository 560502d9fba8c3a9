import Testing

@testable import BrowserSession

@Suite struct ReturnURLPolicyTests {
    let policy = ReturnURLPolicy()

    @Test func relativePathsOnThisOriginAreAccepted() {
        #expect(policy.accepted("/app/orders?id=3#top") == "/app/orders?id=3#top")
        #expect(policy.accepted(nil) == "/")
        #expect(policy.accepted("") == "/")
    }

    @Test(arguments: [
        "//evil.example", "/\\evil.example", "\\\\evil.example", "/\t/evil.example", "/\n/evil.example",
        "https://evil.example/", "javascript:alert(1)", "evil.example", "HTTPS://EVIL.EXAMPLE",
    ])
    func otherOriginsAreRefused(candidate: String) {
        #expect(policy.accepted(candidate) == nil)
    }

    @Test func listedOriginsAcceptAbsoluteURLsExactly() {
        let listing = ReturnURLPolicy(allowedOrigins: ["https://App.example"])
        #expect(listing.accepted("https://app.example/home") == "https://app.example/home")
        #expect(listing.accepted("https://app.example.evil/home") == nil)
        #expect(listing.accepted("https://app.example@evil.example/") == nil)
        #expect(listing.accepted("http://app.example/") == nil)
    }
}
