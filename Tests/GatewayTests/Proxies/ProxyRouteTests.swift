import GatewayTesting
import Glibc
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// Proxy routes end to end: a client's requests over loopback to an in-process gateway, passed
/// through to stub upstreams over loopback.
@Suite("Proxy routes: requests passed through to an upstream")
struct ProxyRouteTests {
    /// Behind `/api`, `/ct` goes to it.
    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    /// At its origin's root, `/raw` goes to it; nothing listens at its default URL.
    static let bare = UpstreamDefinition(name: "bare", defaultBaseURL: "http://127.0.0.1:9")
    static let special = Endpoint("/ct/special", summary: "A combined endpoint below a prefix", upstreams: [], example: ["special": true]) { _ in
        ["special": true]
    }
    static let catalog = GatewayCatalog(
        upstreams: [origin, bare], endpoints: [special],
        proxies: [
            ProxyRoute("/ct", upstream: origin, summary: "The contacts API as it is", upstreamCredentials: .sent), ProxyRoute("/raw", upstream: bare),
        ])

    /// A stub upstream (origin at `/api`, bare at its root unless `environment` says otherwise)
    /// and a gateway in front of it.
    private static func start(_ environment: [String: String] = [:]) throws -> (StubUpstream, GatewayUnderTest) {
        let stub = try StubUpstream()
        let base = ["UPSTREAM_ORIGIN_URL": stub.baseURL + "/api", "UPSTREAM_BARE_URL": stub.baseURL]
        do {
            return (stub, try GatewayUnderTest(catalog: catalog, environment: base.merging(environment) { _, given in given }))
        } catch {
            stub.shutdown()
            throw error
        }
    }

    /// Answers `METHOD path?query body` as text, with `status`.
    private static func echo(status: Int = 200) -> @Sendable (StubUpstream.ReceivedRequest) async -> HTTPResponse {
        { request in
            let text = "\(request.method) \(request.path)\(request.query.map { "?" + $0 } ?? "") \(String(decoding: request.body, as: UTF8.self))"
            return HTTPResponse(status: HTTPStatus(code: status), headers: ["Content-Type": "text/plain"], body: Array(text.utf8))
        }
    }

    @Test("GET, POST, PUT, DELETE and PATCH pass with their bodies; HEAD passes as HEAD and is answered without a body")
    func methods() async throws {
        let (stub, gateway) = try Self.start()
        defer { stub.shutdown() }
        stub.answer("/api/items/1", Self.echo())
        var answers: [String] = []
        for method in [HTTPMethod.get, .post, .put, .delete, .patch] {
            let response = try await gateway.send(method, "/ct/items/1?x=1", headers: ["Content-Type": "text/csv"], body: "a,b from \(method)")
            answers.append("\(response.status) \(response.headers["Content-Type"] ?? "-") \(response.text)")
        }
        let head = try await gateway.send(.head, "/ct/items/1")
        await gateway.stop()
        #expect(answers == [HTTPMethod.get, .post, .put, .delete, .patch].map { "200 text/plain \($0) /api/items/1?x=1 a,b from \($0)" })
        #expect(stub.received.prefix(5).allSatisfy { $0.headers["Content-Type"] == "text/csv" })
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["Content-Length"] == String("HEAD /api/items/1 ".utf8.count))
        #expect(stub.received.last?.method == "HEAD")
    }

    @Test("the prefix is replaced by the upstream's base path; the query goes as received", arguments: [
        ("/ct", "/api", nil), ("/ct/", "/api/", nil), ("/ct/a/b?x=1", "/api/a/b", "x=1"),
        ("/ct/caf%C3%A9/a%2Fb;v=1?y=%2F+z&&flag", "/api/caf%C3%A9/a%2Fb;v=1", "y=%2F+z&&flag"), ("/ct/a?", "/api/a", ""),
        ("/raw", "/", nil), ("/raw/x//y?q=%zz", "/x//y", "q=%zz"),
    ] as [(String, String, String?)])
    func targets(target: String, path: String, query: String?) async throws {
        let (stub, gateway) = try Self.start()
        defer { stub.shutdown() }
        stub.answer(path, Self.echo())
        let response = try await gateway.get(target)
        await gateway.stop()
        #expect(response.status == 200)
        let received = try #require(stub.received.first)
        #expect(received.path == path)
        #expect(received.query == query)
    }

    @Test("the upstream's status and body pass as they are, redirects and errors included", arguments: [201, 302, 304, 308, 404, 500])
    func statuses(status: Int) async throws {
        let (stub, gateway) = try Self.start(["UPSTREAM_ORIGIN_RETRY_ATTEMPTS": "1"])
        defer { stub.shutdown() }
        stub.answer("/api/thing") { _ in
            HTTPResponse(
                status: HTTPStatus(code: status),
                headers: ["Content-Type": "application/vnd.thing+json", "ETag": #""v1""#, "Location": "/api/elsewhere"],
                body: Array(#"{"status":\#(status)}"#.utf8))
        }
        let response = try await gateway.get("/ct/thing")
        await gateway.stop()
        #expect(response.status == status)
        #expect(response.headers["ETag"] == #""v1""#)
        #expect(response.headers["Location"] == "/api/elsewhere" && stub.received.count == 1)
        #expect(response.text == (status == 304 ? "" : #"{"status":\#(status)}"#))
        #expect(response.headers["Content-Type"] == "application/vnd.thing+json")
    }

    @Test("hop-by-hop fields of the request, and those its Connection names, stay on the client's hop")
    func hopByHopRequestFields() async throws {
        let (stub, gateway) = try Self.start()
        defer { stub.shutdown() }
        stub.answer("/api/a", Self.echo())
        let response = try await gateway.get("/ct/a", headers: [
            "Connection": "X-Hop, keep-alive", "X-Hop": "secret", "Keep-Alive": "timeout=5", "TE": "trailers", "Trailer": "X-Checksum",
            "Upgrade": "h2c", "Proxy-Authorization": "Basic Zm9vOmJhcg==", "Proxy-Connection": "keep-alive",
            "X-End-To-End": "kept", "Accept": "text/plain",
        ])
        await gateway.stop()
        #expect(response.status == 200)
        let received = try #require(stub.received.first).headers
        for name in ["Connection", "X-Hop", "Keep-Alive", "TE", "Trailer", "Upgrade", "Proxy-Authorization", "Proxy-Connection"] {
            #expect(!received.contains(name), "\(name) was passed on")
        }
        #expect(received["X-End-To-End"] == "kept" && received["Accept"] == "text/plain")
    }

    @Test("hop-by-hop fields of the answer, and those its Connection names, stay on the upstream's hop")
    func hopByHopResponseFields() async throws {
        let upstream = try MisbehavingUpstream(.respond(
            "HTTP/1.1 200 OK\r\nConnection: close, X-Hop\r\nX-Hop: secret\r\nKeep-Alive: timeout=5\r\nProxy-Authenticate: Basic realm=\"x\"\r\n"
                + "Upgrade: h2c\r\nTrailer: X-Checksum\r\nProxy-Connection: close\r\nX-Refreshed-Token: gateway-secret\r\n"
                + "X-End-To-End: kept\r\nVia: 1.1 origin\r\nCache-Status: origin; hit\r\nContent-Type: text/plain\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"))
        defer { upstream.shutdown() }
        let (stub, gateway) = try Self.start(["UPSTREAM_BARE_URL": "http://127.0.0.1:\(upstream.port)"])
        defer { stub.shutdown() }
        let response = try await gateway.get("/raw/a")
        await gateway.stop()
        #expect(response.status == 200 && response.text == "ok")
        for name in ["X-Hop", "Keep-Alive", "Proxy-Authenticate", "Upgrade", "Trailer", "Proxy-Connection", "X-Refreshed-Token"] {
            #expect(!response.headers.contains(name), "\(name) was passed on")
        }
        #expect(response.headers["X-End-To-End"] == "kept" && response.headers["Content-Type"] == "text/plain")
        // An answer of unknown length streams: the gateway frames it in chunks of its own.
        #expect(response.headers.values(named: "Transfer-Encoding") == ["chunked"] && response.headers["Content-Length"] == nil)
        #expect(response.headers["Via"] == "1.1 origin, 1.1 gateway")
        // The gateway's cache adds its member after the upstream's: it did not store an answer without freshness.
        #expect(response.headers["Cache-Status"] == "origin; hit, gateway; fwd=uri-miss; fwd-status=200")
    }

    @Test("the upstream gets its own Host, the gateway in Via, and the client in Forwarded and X-Forwarded-*, a peer's own only from a trusted proxy")
    func forwardingFields() async throws {
        for trusted in [false, true] {
            let (stub, gateway) = try Self.start(trusted ? ["TRUSTED_PROXIES": "127.0.0.1/32"] : [:])
            defer { stub.shutdown() }
            stub.answer("/api/a", Self.echo())
            let response = try await gateway.get("/ct/a", headers: [
                "Via": "1.0 edge", "X-Forwarded-For": "203.0.113.9", "Forwarded": "for=203.0.113.9", "X-Forwarded-Host": "spoofed.example",
                "X-Forwarded-Proto": "https",
            ])
            await gateway.stop()
            let received = try #require(stub.received.first).headers
            let host = "127.0.0.1:\(gateway.port)"
            #expect(received.values(named: "Host") == [String(stub.baseURL.dropFirst("http://".count))])
            #expect(received.values(named: "Via") == ["1.0 edge, 1.1 gateway"])
            // A trusted proxy writes X-Forwarded-For (the default TRUSTED_PROXIES_HEADER): its
            // Forwarded is whatever its client sent, replaced like an untrusted peer's.
            #expect(received.values(named: "X-Forwarded-For") == [trusted ? "203.0.113.9, 127.0.0.1" : "127.0.0.1"])
            #expect(received.values(named: "Forwarded") == [#"for=127.0.0.1;host="\#(host)";proto=http"#])
            #expect(received.values(named: "X-Forwarded-Host") == [host])
            #expect(received.values(named: "X-Forwarded-Proto") == ["http"])
            #expect(response.headers["Via"] == "1.1 gateway")
        }
    }

    @Test("the upstream's bearer token replaces the client's credentials; the request id and trace context go once, with a parent id of the gateway's")
    func credentials() async throws {
        let (stub, gateway) = try Self.start(["UPSTREAM_ORIGIN_BEARER_TOKEN": "upstream-token"])
        defer { stub.shutdown() }
        stub.answer("/api/a", Self.echo())
        stub.answer("/b", Self.echo())
        let traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let headers: HTTPHeaders = [
            "Authorization": "Bearer client-token", "X-Request-ID": "request-42", "traceparent": traceParent, "tracestate": "vendor=opaque",
        ]
        let response = try await gateway.get("/ct/a", headers: headers)
        _ = try await gateway.get("/raw/b", headers: headers)
        await gateway.stop()
        #expect(response.headers["X-Request-ID"] == "request-42")
        let (toOrigin, toBare) = (stub.received[0].headers, stub.received[1].headers)
        #expect(toOrigin.values(named: "Authorization") == ["Bearer upstream-token"])
        #expect(toOrigin.values(named: "X-Request-ID") == ["request-42"])
        let sent = toOrigin.values(named: "traceparent")
        #expect(sent.count == 1)
        #expect(sent.first?.hasPrefix("00-4bf92f3577b34da6a3ce929d0e0e4736-") == true && sent.first?.hasSuffix("-01") == true)
        #expect(sent.first != traceParent && sent.first.flatMap(TraceParent.parse) != nil)
        #expect(toOrigin.values(named: "tracestate") == ["vendor=opaque"])
        #expect(toBare.values(named: "Authorization") == ["Bearer client-token"])
    }

    @Test("the client's User-Agent passes through; a client without one is sent the upstream's")
    func userAgent() async throws {
        let (stub, gateway) = try Self.start(["UPSTREAM_BARE_USER_AGENT": "bare-caller/2"])
        defer { stub.shutdown() }
        stub.answer("/api/a", Self.echo())
        stub.answer("/b", Self.echo())
        _ = try await gateway.get("/ct/a", headers: ["User-Agent": "curl/8.5.0"])
        _ = try await gateway.get("/ct/a")
        _ = try await gateway.get("/raw/b")
        await gateway.stop()
        #expect(stub.received.map { $0.headers.values(named: "User-Agent") } == [
            ["curl/8.5.0"], ["swift-bff-gateway/\(GatewayVersion.current)"], ["bare-caller/2"],
        ])
    }

    @Test("cookies an upstream sets go to the client that asked, never with another client's requests")
    func cookies() async throws {
        let (stub, gateway) = try Self.start()
        defer { stub.shutdown() }
        stub.answer("/api/login") { _ in HTTPResponse(status: .ok, headers: ["Set-Cookie": "session=client-a; Path=/"]) }
        stub.answer("/api/me", Self.echo())
        let login = try await gateway.send(.post, "/ct/login", body: "{}")
        _ = try await gateway.get("/ct/me")
        await gateway.stop()
        #expect(login.headers["Set-Cookie"] == "session=client-a; Path=/")
        #expect(stub.received.last?.headers["Cookie"] == nil)
    }

    @Test("an upstream that refuses the connection is a 502, one that does not answer in time a 504, as problem+json")
    func failures() async throws {
        let (stub, gateway) = try Self.start(["UPSTREAM_BARE_URL": "http://127.0.0.1:9"])
        defer { stub.shutdown() }
        let refused = try await gateway.get("/raw/x")
        await gateway.stop()
        #expect(refused.status == 502)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.text.contains(#""detail":"upstream bare could not be reached","instance":"/raw/x""#))

        let hanging = try MisbehavingUpstream(.hang)
        defer { hanging.shutdown() }
        let (other, slow) = try Self.start(["UPSTREAM_BARE_URL": "http://127.0.0.1:\(hanging.port)", "UPSTREAM_BARE_TIMEOUT_MS": "200"])
        defer { other.shutdown() }
        let timedOut = try await slow.send(.put, "/raw/x", body: "{}")
        await slow.stop()
        #expect(timedOut.status == 504)
        #expect(timedOut.text.contains("upstream bare did not answer in time"))
    }

    @Test("exact routes and the operations routes win over a prefix; a path beside the prefix is not its")
    func precedence() async throws {
        let (stub, gateway) = try Self.start()
        defer { stub.shutdown() }
        stub.answer("/api/special", Self.echo())
        let exact = try await gateway.get("/ct/special")
        let otherMethod = try await gateway.send(.post, "/ct/special", body: "{}")
        let health = try await gateway.get("/healthz")
        let beside = try await gateway.get("/ctx")
        let index = try await gateway.get("/")
        let openAPI = try await gateway.get("/openapi.json")
        await gateway.stop()
        #expect(exact.text == #"{"special":true}"#)
        #expect(otherMethod.text == "POST /api/special {}")
        #expect(health.text == #"{"status":"ok"}"#)
        #expect(beside.status == 404 && stub.received.count == 1)
        #expect(index.text.contains(#"{"method":"ANY","path":"/ct/{path}","summary":"The contacts API as it is"}"#))
        #expect(index.text.contains(#"{"method":"ANY","path":"/raw/{path}","summary":"Requests below /raw, passed to upstream bare"}"#))
        let paths = try #require(JSONValue(parsing: openAPI.body)?["paths"])
        let proxied = try #require(paths["/ct/{path}"])
        #expect(proxied["get"]?["operationId"] == "proxy_get_ct")
        #expect(proxied["post"]?["parameters"] == [.object([
            ("name", "path"), ("in", "path"), ("required", true),
            ("description", "The rest of the path below /ct, passed to upstream origin as sent; it may hold /"),
            ("schema", .object([("type", "string")])),
        ])])
        #expect(proxied["trace"] == nil)
        #expect(proxied["delete"]?["responses"]?["default"] != nil)
    }

    @Test("a path that could leave the base path or split the request is a 400, TRACE a 405; nothing is sent", arguments: [
        "/ct/../admin", "/ct/..", "/ct/%2e%2e/admin", "/ct/a/..%2F..%2Fadmin", "/ct/%2E", "/ct/a/.%2e", "/ct/a%5C..%5Cb",
        "/ct/a%00b", "/ct/a%0d%0aX-Injected:%20y", "/ct/a%zz",
    ])
    func refusedTargets(target: String) async throws {
        let (stub, gateway) = try Self.start()
        defer { stub.shutdown() }
        let response = try await gateway.get(target)
        let trace = try await gateway.send(.trace, "/ct/a")
        await gateway.stop()
        #expect(response.status == 400)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.text.contains(#""detail":"The request target cannot be passed on: the path holds"#))
        #expect(trace.status == 405 && trace.headers["Allow"]?.contains("GET") == true)
        #expect(stub.received.isEmpty)
    }

    @Test("proxied requests are counted under their route, and their calls under the upstream by outcome")
    func metrics() async throws {
        let (stub, gateway) = try Self.start()
        defer { stub.shutdown() }
        stub.answer("/api/a", Self.echo())
        stub.answer("/api/missing", Self.echo(status: 404))
        _ = try await gateway.get("/ct/a")
        _ = try await gateway.get("/ct/missing")
        let metrics = try await gateway.get("/metrics").text
        await gateway.stop()
        #expect(metrics.contains(#"gateway_requests_total{route="/ct/*",status="200"} 1"#))
        #expect(metrics.contains(#"gateway_requests_total{route="/ct/*",status="404"} 1"#))
        #expect(metrics.contains(#"gateway_upstream_calls_total{upstream="origin",outcome="success"} 1"#))
        #expect(metrics.contains(#"gateway_upstream_calls_total{upstream="origin",outcome="client_error"} 1"#))
    }

    @Test("a proxied request's access log line names its route and the upstream call")
    func accessLog() async throws {
        let log = try LogCapture()
        defer { log.close() }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/api/a", Self.echo(status: 201))
        let catalog = GatewayCatalog(upstreams: GatewayCatalog.reference.upstreams + [Self.origin], endpoints: [], proxies: [ProxyRoute("/ct", upstream: Self.origin)])
        try await withScenarioGateway(environment: ["UPSTREAM_ORIGIN_URL": stub.baseURL + "/api"], catalog: catalog, log: log) { (gateway, _) throws in
            #expect(try await gateway.get("/ct/a").status == 201)
            let line = await log.lines { !$0.isEmpty }.joined(separator: "\n")
            #expect(line.contains(#""method":"GET","path":"/ct/a","route":"/ct/*","status":201,"#))
            #expect(line.contains(#""upstreamCalls":[{"call":"/a","upstream":"origin","outcome":"success","status":201,"attempts":1,"#))
        }
    }
}
