import HTTPBasics
import Synchronization
import Testing

@testable import HTTP1
@testable import HTTP1Client
@testable import HTTP1Server
@testable import NetworkRuntime

@Suite("HTTPClient through proxies")
struct ProxyTests {
    /// `user:secret` in Base64.
    static let encodedCredentials = "dXNlcjpzZWNyZXQ="

    func proxy(port: Int) throws -> ProxyServer {
        try ProxyServer(url: "http://user:secret@127.0.0.1:\(port)")
    }

    func openTunnel(through proxy: ProxyServer, to port: Int) async throws(HTTPClientError) -> AsyncSocket {
        try await Dialer(resolver: NameResolver()).openSocket(
            to: "origin.test", port: port, route: .tunnel(through: proxy), on: .shared, deadline: .now + .seconds(5))
    }

    @Test func tunnelsThroughCONNECTWithBasicCredentials() async throws {
        try await withServer { server in
            let tunnelling = try TunnellingProxy()
            defer { tunnelling.stop() }
            let socket = try await openTunnel(through: try proxy(port: tunnelling.port), to: server.port)
            let connection = ClientConnection(socket: socket)
            defer { connection.close() }
            let response = try await connection.exchange(
                head: Array("GET /through HTTP/1.1\r\nHost: origin.test\r\n\r\n".utf8), body: [], method: .get, acceptsCompression: false,
                limits: HTTPLimits(), timeout: .seconds(5), deadline: .now + .seconds(5))
            #expect(response.status == .ok)
            #expect(response.body == Array("GET /through ".utf8))
            #expect(tunnelling.heads == [
                "CONNECT origin.test:\(server.port) HTTP/1.1\r\nHost: origin.test:\(server.port)\r\n"
                    + "Proxy-Authorization: Basic \(Self.encodedCredentials)\r\n\r\n",
            ])
        }
    }

    @Test func httpsGoesThroughTheTunnelVerifyingTheOriginNotTheProxy() async throws {
        // The origin's certificate names wrong-host.example only: the handshake succeeds only if
        // SNI and verification name the origin the tunnel leads to, not the proxy (127.0.0.1).
        let origin = ServerConfiguration(tls: try TestCertificates.server("wrong-host"))
        try await withServer(origin) { server in
            let tunnelling = try TunnellingProxy()
            defer { tunnelling.stop() }
            let client = HTTPClient(configuration: .init(proxy: ProxySettings(httpsProxy: try proxy(port: tunnelling.port))))
            let request = HTTPClientRequest(host: "wrong-host.example", port: server.port, target: "/secure", tls: try TestCertificates.client())
            for _ in 0..<3 {
                let response = try await client.send(request, timeout: .seconds(5), maximumResponseBytes: 1024)
                #expect(response.body == Array("GET /secure ".utf8))
            }
            #expect(client.statistics.connectionsOpened == 1)
            #expect(tunnelling.heads == [
                "CONNECT wrong-host.example:\(server.port) HTTP/1.1\r\nHost: wrong-host.example:\(server.port)\r\n"
                    + "Proxy-Authorization: Basic \(Self.encodedCredentials)\r\n\r\n",
            ])
        }
    }

    @Test func aRefusedTunnelNamesTheStatusButNotTheCredentials() async throws {
        let refusing = try TunnellingProxy(refusing: 407)
        defer { refusing.stop() }
        let proxy = try proxy(port: refusing.port)
        do {
            _ = try await openTunnel(through: proxy, to: 443)
            Issue.record("the tunnel opened")
        } catch {
            #expect(error == .connectionFailed(reason: "proxy 127.0.0.1:\(refusing.port) answered 407 to CONNECT origin.test:443"))
            #expect(!error.description.contains("secret"))
            #expect(!error.description.contains(Self.encodedCredentials))
        }
        #expect(!"\(ProxySettings(httpsProxy: proxy))".contains("secret"))
    }

    @Test func anUnreachableProxyIsNamedWithoutItsCredentials() async throws {
        let closed = try TunnellingProxy()
        let port = closed.port
        closed.stop()
        let client = HTTPClient(configuration: .init(proxy: ProxySettings(httpProxy: try proxy(port: port))))
        do {
            _ = try await client.send(HTTPClientRequest(host: "origin.test", port: 80, target: "/"), timeout: .seconds(5), maximumResponseBytes: 1024)
            Issue.record("the request went through")
        } catch {
            #expect(error.description.contains("proxy 127.0.0.1:\(port)"))
            #expect(!error.description.contains("secret"))
        }
    }

    @Test func sendsHTTPRequestsToTheProxyInAbsoluteFormOverOnePooledConnection() async throws {
        let heads = Mutex<[String]>([])
        let forwarding = try StubServer { connection in
            while let head = connection.readRequest() {
                heads.withLock { $0.append(head) }
                connection.write(HTTPClientTests.okResponse)
            }
        }
        let client = HTTPClient(configuration: .init(proxy: ProxySettings(httpProxy: try proxy(port: forwarding.port))))
        for target in ["/first?x=1", "/second"] {
            let response = try await client.send(
                HTTPClientRequest(host: "origin.test", port: 8080, target: target), timeout: .seconds(5), maximumResponseBytes: 1024)
            #expect(response.body == Array("hello".utf8))
        }
        #expect(heads.withLock { $0 } == [
            "GET http://origin.test:8080/first?x=1 HTTP/1.1\r\nHost: origin.test:8080\r\n"
                + "Proxy-Authorization: Basic \(Self.encodedCredentials)\r\n\r\n",
            "GET http://origin.test:8080/second HTTP/1.1\r\nHost: origin.test:8080\r\n"
                + "Proxy-Authorization: Basic \(Self.encodedCredentials)\r\n\r\n",
        ])
        #expect(forwarding.acceptedConnections == 1)
    }

    @Test func bypassedAndLoopbackOriginsAreReachedDirectly() async throws {
        let server = try StubServer.answering(HTTPClientTests.okResponse)
        let unused = try TunnellingProxy()
        defer { unused.stop() }
        let client = HTTPClient(configuration: .init(proxy: ProxySettings(httpProxy: try proxy(port: unused.port))))
        let response = try await client.send(
            HTTPClientRequest(host: "127.0.0.1", port: server.port, target: "/"), timeout: .seconds(5), maximumResponseBytes: 1024)
        #expect(response.status == .ok)
        #expect(unused.heads.isEmpty)
    }
}
