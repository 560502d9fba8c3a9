import Testing

@testable import HTTP1Client
@testable import NetworkRuntime

/// A proxy that misbehaves when asked for a tunnel fails the connect with a reason naming the
/// proxy, within the deadline, and never lets its bytes pass for the origin's.
@Suite("CONNECT through a misbehaving proxy")
struct ProxyTunnelFailureTests {
    func openTunnel(throughProxyAt port: Int, deadline: ContinuousClock.Instant = .now + .seconds(5)) async throws(HTTPClientError) -> AsyncSocket {
        let proxy = try! ProxyServer(url: "http://user:secret@127.0.0.1:\(port)")
        return try await Dialer(resolver: NameResolver()).openSocket(
            to: "origin.test", port: 443, route: .tunnel(through: proxy), on: .shared, deadline: deadline)
    }

    /// A proxy that reads the `CONNECT` head, writes `answer`, then closes.
    func proxy(answering answer: String) throws -> StubServer {
        try StubServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write(answer)
        }
    }

    @Test(arguments: [
        ("", "closed the connection before answering CONNECT"),
        ("HTTP/1.1 200\r\n", "closed the connection before answering CONNECT"),
        ("SSH-2.0-OpenSSH_9.6\r\n\r\n", "answered CONNECT with an invalid response: invalid status line"),
        ("HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 200 OK\r\n\r\n", "sent bytes after its answer to CONNECT"),
    ])
    func aBadAnswerFailsNamingTheProxyButNotItsCredentials(answer: String, reason: String) async throws {
        try await expectFailure(reason, whenTheProxyAnswers: answer)
    }

    @Test func anEndlessAnswerIsRefusedAtTheHeadLimit() async throws {
        try await expectFailure(
            "answered CONNECT with an invalid response",
            whenTheProxyAnswers: "HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 70_000) + "\r\n\r\n")
    }

    func expectFailure(_ reason: String, whenTheProxyAnswers answer: String) async throws {
        let proxy = try proxy(answering: answer)
        do {
            let socket = try await openTunnel(throughProxyAt: proxy.port)
            socket.close()
            Issue.record("the tunnel opened")
        } catch {
            guard case .connectionFailed(let description) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(description.hasPrefix("proxy 127.0.0.1:\(proxy.port) "))
            #expect(description.contains(reason))
            #expect(!description.contains("secret"))
        }
    }

    @Test func aProxyThatNeverAnswersTimesOutAtTheDeadline() async throws {
        let (proxy, _) = try StubServer.holdingRequests()
        let started = ContinuousClock.now
        await #expect(throws: HTTPClientError.timedOut) {
            _ = try await openTunnel(throughProxyAt: proxy.port, deadline: .now + .milliseconds(200))
        }
        #expect(ContinuousClock.now - started < .seconds(3))
    }
}
