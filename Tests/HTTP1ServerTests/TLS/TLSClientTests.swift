import Glibc
import HTTPBasics
import Synchronization
import Testing

@testable import HTTP1Client
@testable import HTTP1Server
@testable import NetworkRuntime

/// `HTTPClient` over TLS against our own server (and `TLSStub`) on 127.0.0.1.
@Suite("TLS client")
struct TLSClientTests {
    static let tlsServer = ServerConfiguration(tls: try? TestCertificates.server())

    func request(port: Int, host: String = "localhost", tls: TLSContext, target: String = "/hello") -> HTTPClientRequest {
        HTTPClientRequest(host: host, port: port, target: target, tls: tls)
    }

    @Test func sendsOverTLSAndReusesTheConnection() async throws {
        let tls = try TestCertificates.client()
        try await withServer(Self.tlsServer) { server in
            let client = HTTPClient()
            for _ in 0..<20 {
                let response = try await client.send(request(port: server.port, tls: tls), timeout: .seconds(5), maximumResponseBytes: 1024)
                #expect(response.status == .ok)
                #expect(response.body == Array("GET /hello ".utf8))
            }
            #expect(client.statistics.connectionsOpened == 1)
            #expect(client.statistics.connectionsReused == 19)
        }
    }

    @Test func verifiesAnIPAddressAgainstTheCertificate() async throws {
        let tls = try TestCertificates.client()
        try await withServer(Self.tlsServer) { server in
            let response = try await HTTPClient().send(
                request(port: server.port, host: "127.0.0.1", tls: tls), timeout: .seconds(5), maximumResponseBytes: 1024)
            #expect(response.status == .ok)
        }
    }

    @Test func sendsAndReadsLargeBodies() async throws {
        let tls = try TestCertificates.client()
        let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try await withServer(Self.tlsServer, responder: TestResponder { request in HTTPResponse(status: .ok, body: request.body + large) }) { server in
            var request = request(port: server.port, tls: tls)
            request.method = .post
            request.body = Array(large.prefix(50_000))
            let response = try await HTTPClient().send(request, timeout: .seconds(5), maximumResponseBytes: 1 << 20)
            #expect(response.body == Array(large.prefix(50_000)) + large)
        }
    }

    @Test func readsAChunkedBody() async throws {
        let stub = try TLSStub(tls: try TestCertificates.server()) { socket in
            while await TLSStub.readHead(socket) {
                let response = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
                try? await socket.write(Array(response.utf8), deadline: .now + .seconds(5))
            }
        }
        let client = HTTPClient()
        for _ in 0..<3 {
            let response = try await client.send(request(port: stub.port, tls: try TestCertificates.client()), timeout: .seconds(5), maximumResponseBytes: 1024)
            #expect(response.body == Array("hello world".utf8))
        }
    }

    @Test func rejectsACertificateFromAnUntrustedAuthorityBeforeSendingAnything() async throws {
        let requests = Atomic<Int>(0)
        let responder = TestResponder { _ in
            requests.add(1, ordering: .relaxed)
            return HTTPResponse(status: .ok)
        }
        try await withServer(ServerConfiguration(tls: try TestCertificates.server("untrusted")), responder: responder) { server in
            let error = await sendFailure(request(port: server.port, tls: try TestCertificates.client()))
            #expect(error == .certificateRejected(reason: "unable to get local issuer certificate"))
            #expect(error?.description.contains("certificate") == true)
        }
        #expect(requests.load(ordering: .relaxed) == 0)
    }

    @Test func rejectsAnExpiredCertificate() async throws {
        try await withServer(ServerConfiguration(tls: try TestCertificates.server("expired"))) { server in
            let error = await sendFailure(request(port: server.port, tls: try TestCertificates.client()))
            #expect(error == .certificateRejected(reason: "certificate has expired"))
        }
    }

    @Test func rejectsACertificateForAnotherHost() async throws {
        let tls = try TestCertificates.client()
        try await withServer(ServerConfiguration(tls: try TestCertificates.server("wrong-host"))) { server in
            let byName = await sendFailure(request(port: server.port, host: "localhost", tls: tls))
            #expect(byName == .certificateRejected(reason: "hostname mismatch"))
            let byAddress = await sendFailure(request(port: server.port, host: "127.0.0.1", tls: tls))
            #expect(byAddress == .certificateRejected(reason: "IP address mismatch"))
        }
    }

    @Test func rejectsACertificateThatNamesTheHostOnlyInItsCommonName() async throws {
        let tls = try TestCertificates.client()
        try await withServer(ServerConfiguration(tls: try TestCertificates.server("common-name-only"))) { server in
            let error = await sendFailure(request(port: server.port, host: "localhost", tls: tls))
            #expect(error == .certificateRejected(reason: "hostname mismatch"))
        }
    }

    @Test func presentsAClientCertificateWhenTheServerRequiresOne() async throws {
        let server = try TestCertificates.server(requiringClientsOf: "ca.pem")
        try await withServer(ServerConfiguration(tls: server)) { server in
            let response = try await HTTPClient().send(
                request(port: server.port, tls: try TestCertificates.client(withCertificate: true)),
                timeout: .seconds(5), maximumResponseBytes: 1024)
            #expect(response.status == .ok)
            let refused = await sendFailure(request(port: server.port, tls: try TestCertificates.client()))
            #expect(refused != nil)
        }
    }

    @Test func timesOutAStalledHandshake() async throws {
        // Accepts TCP and never answers the client hello.
        let stub = try TLSStub(tls: nil) { socket in
            var buffer = ReadBuffer()
            _ = try? await socket.read(into: &buffer, deadline: .now + .seconds(10))
            _ = try? await socket.read(into: &buffer, deadline: .now + .seconds(10))
        }
        let started = ContinuousClock.now
        let error = await sendFailure(request(port: stub.port, tls: try TestCertificates.client()), timeout: .milliseconds(200))
        #expect(error == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func cancelsAHandshakeInProgress() async throws {
        let stub = try TLSStub(tls: nil) { socket in
            var buffer = ReadBuffer()
            _ = try? await socket.read(into: &buffer, deadline: .now + .seconds(10))
            _ = try? await socket.read(into: &buffer, deadline: .now + .seconds(10))
        }
        let request = request(port: stub.port, tls: try TestCertificates.client())
        let client = HTTPClient()
        let task = Task { () async -> HTTPClientError? in
            do throws(HTTPClientError) {
                _ = try await client.send(request, timeout: .seconds(10), maximumResponseBytes: 1024)
                return nil
            } catch {
                return error
            }
        }
        while client.statistics.openConnections == 0 { await Task.yield() }
        task.cancel()
        #expect(await task.value == .cancelled)
    }

    @Test func failsABodyCutWithoutCloseNotify() async throws {
        let stub = try TLSStub(tls: try TestCertificates.server()) { socket in
            guard await TLSStub.readHead(socket) else { return }
            let response = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part of it"
            try? await socket.write(Array(response.utf8), deadline: .now + .seconds(5))
            // close() without shutdownOutput(): TCP ends with no close_notify.
        }
        let error = await sendFailure(request(port: stub.port, tls: try TestCertificates.client()))
        #expect(error == .connectionClosed)
    }

    @Test func readsABodyUntilCloseNotify() async throws {
        let stub = try TLSStub(tls: try TestCertificates.server()) { socket in
            guard await TLSStub.readHead(socket) else { return }
            try? await socket.write(Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it".utf8), deadline: .now + .seconds(5))
            await socket.shutdownOutput(deadline: .now + .seconds(5))
        }
        let response = try await HTTPClient().send(request(port: stub.port, tls: try TestCertificates.client()), timeout: .seconds(5), maximumResponseBytes: 1024)
        #expect(response.body == Array("all of it".utf8))
    }

    @Test func resumesTheSessionOnAReplacementConnection() async throws {
        let resumed = Mutex<[Bool]>([])
        let stub = try TLSStub(tls: try TestCertificates.server()) { socket in
            guard await TLSStub.readHead(socket) else { return }
            resumed.withLock { $0.append(socket.isTLSSessionResumed) }
            try? await socket.write(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8), deadline: .now + .seconds(5))
            await socket.shutdownOutput(deadline: .now + .seconds(5))
        }
        let client = HTTPClient()
        let tls = try TestCertificates.client()
        for _ in 0..<3 {
            let response = try await client.send(request(port: stub.port, tls: tls), timeout: .seconds(5), maximumResponseBytes: 1024)
            #expect(response.body == Array("ok".utf8))
        }
        #expect(resumed.withLock { $0 } == [Bool]([false, true, true]))
    }

    @Test func poolsConnectionsPerContext() async throws {
        try await withServer(Self.tlsServer) { server in
            let client = HTTPClient()
            for tls in [try TestCertificates.client(), try TestCertificates.client()] {
                _ = try await client.send(request(port: server.port, tls: tls), timeout: .seconds(5), maximumResponseBytes: 1024)
            }
            #expect(client.statistics.connectionsOpened == 2)
        }
    }

    @Test func trustsWhatSSLCertFileNamesByDefault() async throws {
        setenv("SSL_CERT_FILE", TestCertificates.path("ca.pem"), 1)
        let tls = try TLSContext.client()
        unsetenv("SSL_CERT_FILE")
        try await withServer(Self.tlsServer) { server in
            let response = try await HTTPClient().send(request(port: server.port, tls: tls), timeout: .seconds(5), maximumResponseBytes: 1024)
            #expect(response.status == .ok)
        }
    }

    @Test func leavesTheDefaultPortOutOfTheHostHeader() {
        #expect(HTTPClient.hostHeader(host: "example.com", port: 443, isSecure: true) == "example.com")
        #expect(HTTPClient.hostHeader(host: "example.com", port: 80, isSecure: true) == "example.com:80")
    }

    private func sendFailure(_ request: HTTPClientRequest, timeout: Duration = .seconds(5)) async -> HTTPClientError? {
        do throws(HTTPClientError) {
            _ = try await HTTPClient().send(request, timeout: timeout, maximumResponseBytes: 1024)
            return nil
        } catch {
            return error
        }
    }
}
