import Testing

@testable import HTTP1Client

@Suite("HTTPClient Host field")
struct HostHeaderTests {
    @Test(arguments: [
        ("127.0.0.1", 8080, "127.0.0.1:8080"),
        ("example.com", 80, "example.com"),
        ("example.com", 443, "example.com:443"),
        ("::1", 8080, "[::1]:8080"),
        ("::1", 80, "[::1]"),
        ("[::1]", 8080, "[::1]:8080"),
    ])
    func bracketsIPv6AndOmitsPort80(host: String, port: Int, expected: String) {
        #expect(HTTPClient.hostHeader(host: host, port: port) == expected)
    }
}
