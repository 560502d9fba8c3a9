import HTTP1
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import Testing
import UpstreamKit

@testable import Gateway

/// How proxy routes rewrite requests and answers: pure functions, no network.
@Suite("Proxy routes: rewriting requests and answers")
struct ProxyMessagesTests {
    @Test("the gateway's Cache-Status member goes after the upstream's, or alone, when the shared cache took part")
    func cacheStatus() {
        let miss = CacheStatus(outcome: .miss, forwarded: true, stored: true, upstreamStatus: 200, remainingFreshness: 60)
        let behindACache = Response(status: .ok, headers: ["Cache-Status": "origin; hit", "cache-status": "cdn; fwd=miss"], cacheStatus: miss)
        #expect(ProxyMessages.clientResponse(for: behindACache, answeringHEAD: false).headers.values(named: "Cache-Status")
            == ["origin; hit, cdn; fwd=miss, gateway; fwd=uri-miss; fwd-status=200; stored; ttl=60"])
        let hit = Response(status: .ok, cacheStatus: CacheStatus(outcome: .hit, remainingFreshness: 42.7))
        #expect(ProxyMessages.clientResponse(for: hit, answeringHEAD: false).headers.values(named: "Cache-Status") == ["gateway; hit; ttl=42"])
        let uncached = Response(status: .ok, headers: ["Cache-Status": "origin; hit"])
        #expect(ProxyMessages.clientResponse(for: uncached, answeringHEAD: false).headers.values(named: "Cache-Status") == ["origin; hit"])
        #expect(!ProxyMessages.clientResponse(for: Response(status: .ok), answeringHEAD: false).headers.contains("Cache-Status"))
    }

    @Test("an answer passes on with its status, body and end-to-end fields, and the gateway in Via")
    func answer() {
        let response = Response(
            status: HTTPStatus(code: 418), headers: [
                "Content-Type": "text/plain", "Content-Length": "5", "Connection": "x-hop", "X-Hop": "1", "Set-Cookie": "a=1",
                "Set-Cookie": "b=2", "X-Refreshed-Token": "gateway-secret",
            ], body: Array("hello".utf8))
        let answer = ProxyMessages.clientResponse(for: response, answeringHEAD: false)
        #expect(answer.status.code == 418)
        #expect(answer.body == Array("hello".utf8))
        #expect(answer.headers == ["Content-Type": "text/plain", "Set-Cookie": "a=1", "Set-Cookie": "b=2", "Via": "1.1 gateway"])
        let head = ProxyMessages.clientResponse(for: Response(status: .ok, headers: ["Content-Length": "5"], body: Array("hello".utf8)), answeringHEAD: true)
        #expect(head.body.isEmpty && head.headers["Content-Length"] == "5")
    }

    @Test("the upstream learns the hop: an IPv6 client quoted, a host that is no token quoted, the client's version in Via")
    func forwardingFields() {
        let request = HTTPRequest(
            method: .get, target: "/ct/a", path: "/ct/a", query: nil, version: .http1_0,
            headers: [
                "Host": "example.com:8443", "Forwarded": "for=unknown", "X-Forwarded-Proto": "http", "X-Request-ID": "abc",
                "Accept-Encoding": "br, gzip",
            ],
            clientAddress: IPAddress("2001:db8::1"))
        let headers = ProxyMessages.upstreamHeaders(for: request, isSecure: true)
        #expect(headers == [
            "Via": "1.0 gateway",
            "Forwarded": #"for="[2001:db8::1]";host="example.com:8443";proto=https"#,
            "X-Forwarded-For": "2001:db8::1",
            "X-Forwarded-Host": "example.com:8443",
            "X-Forwarded-Proto": "https",
        ])
        let unknown = HTTPRequest(method: .get, target: "/ct", headers: ["Host": "gw", "X-Forwarded-For": "192.0.2.1", "x-forwarded-for": "192.0.2.2"])
        let fromNowhere = ProxyMessages.upstreamHeaders(for: unknown, isSecure: false)
        #expect(fromNowhere["Forwarded"] == "for=unknown;host=gw;proto=http")
        #expect(!fromNowhere.contains("X-Forwarded-For"))
        let viaProxy = HTTPRequest(
            method: .get, target: "/ct", path: "/ct", query: nil, headers: ["Host": "gw", "Forwarded": "for=192.0.2.1", "X-Forwarded-For": "192.0.2.2"],
            clientAddress: IPAddress("10.0.0.5"))
        let trusted = TrustedProxies([IPAddressRange("10.0.0.0/8")!], field: .forwarded)
        let extended = ProxyMessages.upstreamHeaders(for: viaProxy, isSecure: false, trusting: trusted)
        #expect(extended["Forwarded"] == "for=192.0.2.1, for=10.0.0.5;host=gw;proto=http")
        #expect(extended["X-Forwarded-For"] == "10.0.0.5")
        let quoted = HTTPRequest(method: .get, target: "/ct", path: "/ct", query: nil, headers: ["Host": #"a"b\c"#], clientAddress: IPAddress("192.0.2.7"))
        #expect(ProxyMessages.upstreamHeaders(for: quoted, isSecure: false)["Forwarded"] == #"for=192.0.2.7;host="a\"b\\c";proto=http"#)
    }

    @Test("an answer only a caller with a token was given is made private: shared-cache directives give way, no-store stays")
    func privatized() {
        for (given, expected) in [
            (["public, max-age=60, s-maxage=600"], ["private, max-age=60"]),
            (["max-age=60", "proxy-revalidate, stale-if-error=30"], ["private, max-age=60, stale-if-error=30"]),
            ([#"private="Set-Cookie", max-age=5"#], ["private, max-age=5"]),
            ([], ["private"]),
            (["no-store"], ["no-store"]),
            (["Private, max-age=1"], ["Private, max-age=1"]),
        ] {
            var headers = HTTPHeaders()
            for value in given { headers.add("Cache-Control", value) }
            ProxyMessages.privatize(&headers)
            #expect(headers.values(named: "Cache-Control") == expected, "\(given)")
        }
    }
}
