import GatewayTesting
import HTTP1Server
import HTTPBasics
import RedisClient
import Testing

@testable import Gateway

/// Web cache poisoning through a proxy route (issue 30, finding 3): an origin that writes
/// request fields into a cacheable answer, and a client that forges them. What the first client
/// injects must never reach the second.
@Suite("Proxy routes: no cache poisoning through fields the key does not hold")
struct CachePoisoningTests {
    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    static let catalog = GatewayCatalog(upstreams: [origin], endpoints: [], proxies: [ProxyRoute("/ct", upstream: origin, authentication: .none)])

    /// Every field a reflecting origin (httpbin's `/cache/60`, a framework writing absolute links)
    /// might build its answer from.
    static let reflected = [
        "X-Forwarded-Host", "Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Port", "X-Forwarded-Prefix",
        "X-Forwarded-Scheme", "X-Forwarded-Server", "X-HTTP-Method-Override", "X-Original-URL", "X-Rewrite-URL", "X-Real-IP",
        "True-Client-IP", "X-Host",
    ]

    /// What the attacker sends, each line a field.
    static let forged: [String] = [
        "X-Forwarded-Host: evil.example", "Forwarded: for=1.2.3.4;host=evil.example", "X-Forwarded-For: evil.example",
        "X-Forwarded-Proto: evil", "X-Forwarded-Port: 6666", "X-Forwarded-Prefix: /evil", "X-Forwarded-Scheme: evil",
        "X-Forwarded-Server: evil.example", "X-HTTP-Method-Override: DELETE", "X-Original-URL: /evil", "X-Rewrite-URL: /evil",
        "X-Real-IP: 6.6.6.6", "True-Client-IP: 6.6.6.6", "X-Host: evil.example",
    ]

    /// The attacker's request with `host` as its `Host`.
    static func forgedRequest(host: String) -> String {
        var request = "GET /ct/page HTTP/1.1\r\nHost: " + host + "\r\n"
        for line in forged { request += line + "\r\n" }
        return request + "Connection: close\r\n\r\n"
    }

    /// An origin answering `max-age=60` with `name: value` lines of the fields above it received.
    static func reflecting(_ request: StubUpstream.ReceivedRequest) -> HTTPResponse {
        var lines = ""
        for name in reflected {
            if let value = request.headers[name] { lines += name + ": " + value + "\n" }
        }
        return HTTPResponse(status: .ok, headers: ["Cache-Control": "max-age=60", "Content-Type": "text/plain"], body: Array(lines.utf8))
    }

    @Test("forged routing and override fields are not passed on, and the host the client named keys the answer")
    func forgedFieldsNeverReachAnotherClient() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/page") { request in Self.reflecting(request) }
        try await withGateway(catalog: Self.catalog, environment: ["UPSTREAM_ORIGIN_URL": stub.baseURL]) { gateway in
            // The attacker first, with a Host of its own, then with the gateway's, each twice.
            for host in ["evil.example", "127.0.0.1:\(gateway.port)"] {
                for _ in 0..<2 {
                    let answer = try await RawHTTP.exchange(Self.forgedRequest(host: host), port: gateway.port)
                    #expect(RawHTTP.status(of: answer) == 200)
                    for text in ["6666", "/evil", "DELETE", "6.6.6.6", "1.2.3.4", "for=evil", "X-Forwarded-Proto: evil"] {
                        #expect(!answer.contains(text), "\(text) passed on: \(answer)")
                    }
                }
            }
            // The victim, by the gateway's own name: the answer the origin built for that host only.
            let victim = try await gateway.get("/ct/page")
            #expect(victim.status == 200)
            #expect(!victim.text.contains("evil"), "\(victim.text)")
            #expect(victim.text.contains("X-Forwarded-Host: 127.0.0.1:\(gateway.port)\n"))
            #expect(victim.headers["Cache-Status"]?.hasPrefix("gateway; hit") == true, "\(victim.headers)")
            // One upstream request per host: the evil one and the gateway's own, each stored.
            #expect(stub.received.count == 2)
        }
    }

    @Test(
        "through Redis too: a replica never serves another's answer to a forged host",
        .enabled(if: RedisServer.isInstalled, "redis-server is not installed (apt-get install redis-server)"))
    func forgedHostNeverReachesAnotherReplica() async throws {
        let redis = try RedisServer()
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/page") { request in Self.reflecting(request) }
        let environment = ["UPSTREAM_ORIGIN_URL": stub.baseURL, "REDIS_URL": "redis://127.0.0.1:\(redis.port)", "REDIS_TIMEOUT_MS": "2000"]
        try await withGateway(catalog: Self.catalog, environment: environment) { first in
            try await withGateway(catalog: Self.catalog, environment: environment) { second in
                #expect(await first.served.redis?.client.connect() == true)
                #expect(await second.served.redis?.client.connect() == true)
                let poisoned = try await RawHTTP.exchange(Self.forgedRequest(host: "evil.example"), port: first.port)
                #expect(poisoned.contains("X-Forwarded-Host: evil.example"))
                // The entry reaches Redis in a task of its own: the victim comes once it is there.
                #expect(try await SharedCacheTests.waitForKeys(1, in: redis) == 1)
                let victim = try await second.get("/ct/page")
                #expect(victim.status == 200)
                #expect(!victim.text.contains("evil"), "\(victim.text)")
                #expect(stub.received.count == 2)
            }
        }
    }
}
