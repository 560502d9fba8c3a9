import HTTP1
import HTTP1Client
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import Synchronization
import Testing

/// What real servers send that our own never does, handled as Go's client handles it: sync-worker servers'
/// `Connection: close` on every answer, interim answers, a 304 nobody asked for, trailers after a
/// chunked body. (HTTP/1.0 bodies until close and HEAD answers with a length: `HTTPClientTests`.)
@Suite("HTTPClient against real servers' habits")
struct RealServerBehaviourTests {
    static let hello = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"

    func request(_ server: StubServer, method: HTTPMethod = .get) -> HTTPClientRequest {
        HTTPClientRequest(method: method, host: "127.0.0.1", port: server.port, target: "/", body: method == .post ? [1] : [])
    }

    func send(_ client: HTTPClient, to server: StubServer, method: HTTPMethod = .get) async throws(HTTPClientError) -> HTTPResponse {
        try await client.send(request(server, method: method), timeout: .seconds(5), maximumResponseBytes: 1 << 16)
    }

    @Test func connectionCloseOnEveryAnswerOpensANewConnectionEachTimeAndNothingIsResent() async throws {
        let requests = Atomic<Int>(0)
        let server = try StubServer { connection in
            guard connection.readRequest() != nil else { return }
            requests.add(1, ordering: .relaxed)
            // As pre-fork servers' sync workers do: the answer says close, and the socket stays open a moment longer.
            connection.write("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello")
            connection.waitForClose()
        }
        let client = HTTPClient()
        for method in [HTTPMethod.get, .post, .get, .post] {
            #expect(try await send(client, to: server, method: method).body == Array("hello".utf8))
        }
        #expect(requests.load(ordering: .relaxed) == 4)
        #expect(client.statistics.connectionsOpened == 4 && client.statistics.connectionsReused == 0)
        #expect(client.statistics.openConnections == 0)
    }

    @Test func interimAnswersAreSkippedAndTheConnectionKept() async throws {
        let server = try StubServer.answering(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
                + Self.hello)
        let client = HTTPClient()
        for _ in 0..<2 {
            let response = try await send(client, to: server)
            #expect(response.status == .ok && response.body == Array("hello".utf8) && !response.headers.contains("Link"))
        }
        #expect(client.statistics.connectionsOpened == 1)
    }

    @Test func aProtocolSwitchNobodyAskedForIsAnInvalidResponse() async throws {
        let server = try StubServer.answering("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n" + Self.hello)
        let client = HTTPClient()
        await #expect(throws: HTTPClientError.invalidResponse(reason: "unexpected protocol switch")) {
            try await send(client, to: server)
        }
        #expect(client.statistics.openConnections == 0)
    }

    @Test func anUnaskedFor304HasNoBodyWhateverItsLengthSays() async throws {
        let server = try StubServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 5\r\n\r\n")
            guard connection.readRequest() != nil else { return }
            connection.write(Self.hello)
        }
        let client = HTTPClient()
        let notModified = try await send(client, to: server)
        #expect(notModified.status.code == 304 && notModified.body.isEmpty)
        #expect(try await send(client, to: server).body == Array("hello".utf8))
        #expect(client.statistics.connectionsOpened == 1)
    }

    @Test func trailersAreReadAndDroppedWithinTheHeadLimit() async throws {
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum, X-Count\r\n\r\n5\r\nhello\r\n0\r\n"
        let server = try StubServer.answering(chunked + "X-Checksum: abc\r\nX-Count: 1\r\n\r\n")
        let client = HTTPClient()
        for _ in 0..<2 {
            let response = try await send(client, to: server)
            #expect(response.body == Array("hello".utf8) && !response.headers.contains("X-Checksum"))
        }
        #expect(client.statistics.connectionsOpened == 1)

        let oversized = try StubServer.answering(chunked + "X-Padding: " + String(repeating: "a", count: 2000) + "\r\n\r\n")
        let strict = HTTPClient(configuration: HTTPClient.Configuration(limits: HTTPLimits(maximumHeaderBytes: 1024)))
        await #expect(throws: HTTPClientError.invalidResponse(reason: "header section too large")) {
            try await send(strict, to: oversized)
        }
    }
}
