import HTTP1Server
import HTTPBasics
import Synchronization
import Testing

/// What conformance checks see from outside, through real sockets: CONNECT and `OPTIONS *` get
/// a method-level refusal, a `Host` outside its grammar a 400, and every refused request is
/// reported (request line only, cut and without query) with its peer.
@Suite("Conformance through sockets")
struct ConformanceTests {
    static var router: Router<Void> {
        var router = Router<Void>()
        router.get("/a") { _, _, _ in HTTPResponse(status: .ok) }
        router.post("/b") { _, _, _ in HTTPResponse(status: .ok) }
        return router
    }

    @Test(
        "CONNECT and OPTIONS * get 405 with every served method in Allow, as problem+json",
        arguments: [
            "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
            "CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n",
            "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
        ])
    func serverWideRequests(request: String) async throws {
        try await withServer(responder: Self.router) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD, POST")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.text.contains(#""status":405"#))
            if request.hasPrefix("CONNECT") {
                // Whatever the client sends next may be the tunnel's bytes, not a request.
                #expect(response.header("Connection") == "close")
                #expect(await client.waitForClose())
            }
        }
    }

    @Test(
        "a Host that is not host[:port] gets 400 and the connection closes",
        arguments: ["exa mple.com", "a/b", "a:b", "[::1", "a@b", "a:80:80", "[::1]x", "a%zz"])
    func invalidHost(host: String) async throws {
        try await withServer(responder: Self.router) { server in
            let exchange = try #require(try await RawExchange.send(Array("GET /a HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8), to: server.port))
            #expect(exchange.statuses == [400])
            #expect(String(decoding: exchange.received, as: UTF8.self).contains("invalid Host"))
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET /a HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
        }
    }

    @Test(
        "an HTTP/1.1 request without Host, or with two, gets 400",
        arguments: ["GET /a HTTP/1.1\r\n\r\n", "GET /a HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", "GET /a HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n"])
    func missingOrRepeatedHost(request: String) async throws {
        try await withServer(responder: Self.router) { server in
            let exchange = try #require(try await RawExchange.send(Array(request.utf8), to: server.port))
            #expect(exchange.statuses == [400])
        }
    }

    @Test("a refused request is reported once, with its cut request line and peer, never a header value")
    func reportsRefusals() async throws {
        let reported = Mutex<[RejectedRequest]>([])
        try await withServer(responder: Self.router, rejectionLog: { rejection in reported.withLock { $0.append(rejection) } }) { server in
            let longTarget = "/\u{1}\"" + String(repeating: "x", count: 100)
            let requests = [
                "GET /a?token=s3cret HTTP/1.1\r\nHost: exa mple.com\r\nAuthorization: Bearer s3cret\r\n\r\n",
                "GET \(longTarget) HTTP/1.1\r\nHost: a\r\n\r\n",
                "Cookie: session=s3cret\r\n\r\n",
                "GET /a HTTP/2.0\r\nHost: a\r\n\r\n",
                "POST /b HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\ns3cret\r\n0\r\n\r\n",
            ]
            for request in requests {
                let exchange = try #require(try await RawExchange.send(Array(request.utf8), to: server.port))
                #expect(exchange.statuses.count == 1)
            }
            #expect(server.metrics.rejectedRequests == requests.count)
        }
        let rejections = reported.withLock { $0 }
        #expect(rejections.map(\.status.code) == [400, 400, 400, 505, 400])
        #expect(rejections.map(\.reason) == ["invalid Host", "invalid request target", "invalid method", "HTTP version not supported", "invalid chunk size"])
        #expect(rejections.map(\.method) == ["GET", "GET", nil, "GET", "POST"])
        #expect(rejections.map(\.target) == ["/a", String(("/\u{1}\"" + String(repeating: "x", count: 100)).prefix(64)), nil, "/a", "/b"])
        #expect(rejections.allSatisfy { $0.peer?.hasPrefix("127.0.0.1:") == true && $0.peer != "127.0.0.1:0" })
        #expect(!rejections.contains { "\($0)".contains("s3cret") })
    }

    @Test("a refused absolute-form target is reported without its user and password")
    func reportsAbsoluteFormWithoutCredentials() async throws {
        let reported = Mutex<[RejectedRequest]>([])
        try await withServer(responder: Self.router, rejectionLog: { rejection in reported.withLock { $0.append(rejection) } }) { server in
            for request in ["GET http://user:s3cret@example.com/a?b HTTP/2.0\r\nHost: a\r\n\r\n", "GET http://s3cret@example.com HTTP/2.0\r\nHost: a\r\n\r\n"] {
                let exchange = try #require(try await RawExchange.send(Array(request.utf8), to: server.port))
                #expect(exchange.statuses == [505])
            }
        }
        let rejections = reported.withLock { $0 }
        #expect(rejections.map(\.target) == ["http://example.com/a", "http://example.com"])
        #expect(!rejections.contains { "\($0)".contains("s3cret") })
    }
}
