import ASCIISyntax
import Testing

@Suite("Host and port text")
struct HostAndPortTextTests {
    @Test(arguments: [
        ("example.com", "example.com", nil),
        ("example.com:8080", "example.com", "8080"),
        ("example.com:", "example.com", ""),
        ("[::1]", "[::1]", nil),
        ("[::1]:6379", "[::1]", "6379"),
        ("[::1", "[::1", nil),
        ("a:b:1", "a", "b:1"),
        ("", "", nil),
    ] as [(String, String, String?)])
    func splitsAfterTheHost(authority: String, host: String, port: String?) throws {
        let parts = try #require(HostAndPortText.split(Substring(authority)))
        #expect(parts.host == Substring(host))
        #expect(parts.port.map(String.init) == port)
    }

    @Test(arguments: ["[::1]x", "[::1]]:80"])
    func refusesTextAfterAnIPLiteral(authority: String) {
        #expect(HostAndPortText.split(Substring(authority)) == nil)
    }

    @Test(arguments: [("1", 1), ("80", 80), ("065535", nil), ("65535", 65535), ("00080", 80)] as [(String, Int?)])
    func readsPortNumbers(text: String, number: Int?) {
        #expect(HostAndPortText.portNumber(Substring(text)) == number)
    }

    @Test(arguments: ["", "0", "65536", "+80", "-1", "8 0", "٨٠", "123456"])
    func refusesOtherPorts(text: String) {
        #expect(HostAndPortText.portNumber(Substring(text)) == nil)
    }
}
