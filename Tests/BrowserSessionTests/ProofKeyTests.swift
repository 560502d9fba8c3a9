import Testing

@testable import BrowserSession

@Suite struct ProofKeyTests {
    @Test func theChallengeIsTheOneOfRFC7636AppendixB() {
        #expect(ProofKey.challenge(of: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func randomTokensAreLongEnoughAndDiffer() {
        let first = ProofKey.randomToken()
        let second = ProofKey.randomToken()
        #expect(first.count == 43 && first != second)
        #expect(first.utf8.allSatisfy { $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "=") })
    }

    @Test func base64URLHasNoPadding() {
        #expect(ProofKey.base64URL(Array("f".utf8)) == "Zg")
        #expect(ProofKey.base64URL(Array("foob".utf8)) == "Zm9vYg")
        #expect(ProofKey.base64URL(Array("foobar".utf8)) == "Zm9vYmFy")
    }
}
