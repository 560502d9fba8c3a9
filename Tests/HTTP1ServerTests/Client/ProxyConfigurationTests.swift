import Testing

@testable import HTTP1Client

@Suite("Proxy configuration")
struct ProxyConfigurationTests {
    struct BypassCase: Sendable, CustomStringConvertible {
        let noProxy: String
        let host: String
        let port: Int
        let bypasses: Bool
        var description: String { "NO_PROXY=\(noProxy) \(host):\(port)" }
    }

    static let bypassCases: [BypassCase] = [
        .init(noProxy: "", host: "api.example.com", port: 443, bypasses: false),
        .init(noProxy: "*", host: "api.example.com", port: 443, bypasses: true),
        .init(noProxy: " * ", host: "10.1.2.3", port: 80, bypasses: true),
        .init(noProxy: "example.com", host: "example.com", port: 443, bypasses: true),
        .init(noProxy: "example.com", host: "api.example.com", port: 443, bypasses: true),
        .init(noProxy: "example.com", host: "badexample.com", port: 443, bypasses: false),
        .init(noProxy: ".example.com", host: "example.com", port: 443, bypasses: true),
        .init(noProxy: ".example.com", host: "a.b.example.com", port: 443, bypasses: true),
        .init(noProxy: "*.example.com", host: "api.example.com", port: 443, bypasses: true),
        .init(noProxy: "EXAMPLE.com", host: "Api.Example.COM", port: 443, bypasses: true),
        .init(noProxy: "example.com.", host: "api.example.com", port: 443, bypasses: true),
        .init(noProxy: "other.org, example.com", host: "api.example.com", port: 80, bypasses: true),
        .init(noProxy: "example.com:8443", host: "api.example.com", port: 8443, bypasses: true),
        .init(noProxy: "example.com:8443", host: "api.example.com", port: 443, bypasses: false),
        .init(noProxy: "10.1.2.3", host: "10.1.2.3", port: 80, bypasses: true),
        .init(noProxy: "10.1.2.3", host: "10.1.2.4", port: 80, bypasses: false),
        .init(noProxy: "10.1.2.3:8080", host: "10.1.2.3", port: 8080, bypasses: true),
        .init(noProxy: "10.1.2.3:8080", host: "10.1.2.3", port: 80, bypasses: false),
        .init(noProxy: "10.0.0.0/8", host: "10.200.3.4", port: 80, bypasses: true),
        .init(noProxy: "10.0.0.0/8", host: "11.0.0.1", port: 80, bypasses: false),
        .init(noProxy: "192.168.4.0/22", host: "192.168.7.255", port: 80, bypasses: true),
        .init(noProxy: "192.168.4.0/22", host: "192.168.8.0", port: 80, bypasses: false),
        .init(noProxy: "10.0.0.0/8", host: "ten.example.com", port: 80, bypasses: false),
        .init(noProxy: "2001:db8::1", host: "[2001:db8::1]", port: 443, bypasses: true),
        .init(noProxy: "[2001:db8::1]:443", host: "2001:db8::1", port: 443, bypasses: true),
        .init(noProxy: "[2001:db8::1]:443", host: "2001:db8::1", port: 80, bypasses: false),
        .init(noProxy: "2001:db8::/32", host: "2001:db8:ffff::7", port: 443, bypasses: true),
        .init(noProxy: "2001:db8::/32", host: "2001:db9::7", port: 443, bypasses: false),
        .init(noProxy: "10.0.0.0/8", host: "::ffff:1", port: 80, bypasses: false),
        .init(noProxy: "", host: "localhost", port: 80, bypasses: true),
        .init(noProxy: "", host: "127.0.0.1", port: 80, bypasses: true),
        .init(noProxy: "", host: "127.9.9.9", port: 80, bypasses: true),
        .init(noProxy: "", host: "::1", port: 80, bypasses: true),
        .init(noProxy: "10.0.0.0/99, [bad, *.", host: "api.example.com", port: 80, bypasses: false),
    ]

    @Test(arguments: bypassCases)
    func bypassList(_ testCase: BypassCase) {
        #expect(ProxyBypassList(testCase.noProxy).includes(host: testCase.host, port: testCase.port) == testCase.bypasses)
    }

    @Test func parsesAProxyURLWithPercentEncodedCredentials() throws {
        let proxy = try ProxyServer(url: "http://us%40er:p%3Ass@Proxy.Internal:3128/")
        #expect(proxy.host == "proxy.internal")
        #expect(proxy.port == 3128)
        #expect(proxy.authorization == "Basic " + ProxyServer.base64(Array("us@er:p:ss".utf8)))
        #expect(proxy.description == "http://***@proxy.internal:3128")
    }

    @Test func noPrintedFormShowsTheCredentials() throws {
        let proxy = try ProxyServer(url: "http://user:secret@proxy.internal:3128")
        let configuration = HTTPClient.Configuration(proxy: ProxySettings(httpProxy: proxy, httpsProxy: proxy))
        var dumped = ""
        dump(configuration, to: &dumped)
        let encoded = String(proxy.authorization?.dropFirst("Basic ".count) ?? "")
        for text in [dumped, "\(configuration)", String(reflecting: configuration), "\(proxy)", String(reflecting: proxy)] {
            #expect(text.contains("proxy.internal"))
            #expect(!text.contains("secret") && !text.contains("user") && !text.contains(encoded))
        }
    }

    @Test func readsAURLWithoutSchemeOrPortAsHTTPOnPort80() throws {
        let proxy = try ProxyServer(url: "proxy.internal")
        #expect(proxy.host == "proxy.internal")
        #expect(proxy.port == 80)
        #expect(proxy.authorization == nil)
        #expect(proxy.description == "http://proxy.internal:80")
        let ipv6 = try ProxyServer(url: "http://[fd00::1]:8080")
        #expect(ipv6.host == "fd00::1")
        #expect(ipv6.authority == "[fd00::1]:8080")
    }

    @Test(arguments: [
        ("https://proxy:443", ProxyServer.ParseError.httpsProxy),
        ("socks5://proxy:1080", .unsupportedScheme),
        ("http://", .missingHost),
        ("http://user:secret@:3128", .missingHost),
        ("http://proxy:0", .invalidPort),
        ("http://proxy:99999", .invalidPort),
        ("http://proxy:http", .invalidPort),
        ("http://pro xy:3128", .invalidHost),
        ("http://[fd00::1", .invalidHost),
        ("http://user:%zz@proxy", .invalidCredentials),
        ("http://proxy:3128/path", .unexpectedPath),
        ("http://proxy:3128?x=1", .unexpectedPath),
    ])
    func refusesAMalformedProxyURLWithoutQuotingIt(url: String, error: ProxyServer.ParseError) {
        #expect(throws: error) { try ProxyServer(url: url) }
        #expect(!error.description.contains("proxy:"))
    }

    @Test func encodesBase64() {
        #expect(ProxyServer.base64([]) == "")
        #expect(ProxyServer.base64(Array("f".utf8)) == "Zg==")
        #expect(ProxyServer.base64(Array("fo".utf8)) == "Zm8=")
        #expect(ProxyServer.base64(Array("foo".utf8)) == "Zm9v")
        #expect(ProxyServer.base64(Array("Aladdin:open sesame".utf8)) == "QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test func routesBySchemeAndBypassList() throws {
        let proxy = try ProxyServer(url: "http://proxy.internal:3128")
        let settings = ProxySettings(httpProxy: proxy, httpsProxy: proxy, bypass: ProxyBypassList("internal.example"))
        #expect(settings.route(toHost: "api.example.com", port: 80, isSecure: false) == .forward(to: proxy))
        #expect(settings.route(toHost: "api.example.com", port: 443, isSecure: true) == .tunnel(through: proxy))
        #expect(settings.route(toHost: "db.internal.example", port: 443, isSecure: true) == .direct)
        let httpsOnly = ProxySettings(httpsProxy: proxy)
        #expect(httpsOnly.route(toHost: "api.example.com", port: 80, isSecure: false) == .direct)
        #expect(httpsOnly.description == "http: direct, https: http://proxy.internal:3128")
    }
}
