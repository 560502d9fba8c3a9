import HTTP1Server
import HTTPBasics
import NetworkRuntime
import Synchronization
import Testing

@Suite struct HTTPServerTests {
    @Test func keepsTheConnectionAliveForASecondRequest() async throws {
        try await withServer { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try await client.readResponse()
            try await client.send("GET /two HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = try await client.readResponse()
            #expect(first.status == 200)
            #expect(first.text == "GET /one ")
            #expect(first.header("Content-Length") == "9")
            #expect(first.header("Date") != nil)
            #expect(first.header("Connection") == nil)
            #expect(first.header("Server") == nil)
            #expect(second.text == "GET /two ")
        }
    }

    @Test func handsTheResponderTheClientAddress() async throws {
        let responder = TestResponder { request in
            HTTPResponse(status: .ok, body: Array((request.clientAddress?.description ?? "unknown").utf8))
        }
        try await withServer(responder: responder) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "127.0.0.1")
        }
    }

    @Test func answersHEADWithoutBodyAndWithTheLengthItIsGiven() async throws {
        let responder = TestResponder { request in
            request.path == "/declared"
                ? HTTPResponse(status: .ok, headers: ["Content-Length": "42"])
                : HTTPResponse(status: .ok, body: Array("hello".utf8))
        }
        try await withServer(responder: responder) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("HEAD /declared HTTP/1.1\r\nHost: x\r\n\r\n")
            let declared = try await client.readResponse(bodyless: true)
            try await client.send("HEAD /body HTTP/1.1\r\nHost: x\r\n\r\nGET /body HTTP/1.1\r\nHost: x\r\n\r\n")
            let fromBody = try await client.readResponse(bodyless: true)
            let get = try await client.readResponse()
            #expect(declared.header("Content-Length") == "42" && declared.body.isEmpty)
            #expect(fromBody.header("Content-Length") == "5" && fromBody.body.isEmpty)
            #expect(get.text == "hello")
        }
    }

    @Test func writesIPAddressesAsText() {
        #expect(IPAddress("192.0.2.1")?.description == "192.0.2.1")
        #expect(IPAddress("192.0.2.1")?.isIPv6 == false)
        #expect(IPAddress("2001:DB8:0:0::1")?.description == "2001:db8::1")
        #expect(IPAddress("::ffff:192.0.2.1")?.isIPv6 == true)
        #expect(IPAddress("192.0.2.1") != IPAddress("::ffff:192.0.2.1"))
        #expect(IPAddress("localhost") == nil && IPAddress("[::1]") == nil && IPAddress("") == nil)
    }

    @Test func servesManyConnectionsAtOnce() async throws {
        try await withServer { server in
            var clients: [TestClient] = []
            for _ in 0..<500 { clients.append(try await TestClient.connect(port: server.port)) }
            for client in clients { try await client.send("GET /many HTTP/1.1\r\nHost: x\r\n\r\n") }
            for index in clients.indices {
                #expect(try await clients[index].readResponse().status == 200)
            }
            // Every client has its answer and keeps its connection: the server holds all of them
            // (counted after the answers, since connects complete in the kernel before any accept).
            #expect(server.metrics.openConnections == 500)
            for client in clients { client.close() }
        }
    }

    @Test func answersPipelinedRequestsInOrder() async throws {
        // The first request is the slowest, so answers in order prove the connection serialises.
        let responder = TestResponder { request in
            if request.path == "/1" { try? await Task.sleep(for: .milliseconds(50)) }
            return HTTPResponse(status: .ok, body: Array(request.path.utf8))
        }
        try await withServer(responder: responder) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send((1...3).map { "GET /\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            var paths: [String] = []
            for _ in 1...3 { paths.append(try await client.readResponse().text) }
            #expect(paths == ["/1", "/2", "/3"])
        }
    }

    @Test func readsAContentLengthBody() async throws {
        try await withServer { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhel")
            try await client.send("lo")
            #expect(try await client.readResponse().text == "POST /p hello")
        }
    }

    @Test func readsAChunkedBody() async throws {
        try await withServer { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
            try await client.send("6\r\n world\r\n0\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "POST /c hello world")
            #expect(try await client.readResponse().text == "GET /next ")
        }
    }

    @Test func sendsContinueBeforeReadingTheBody() async throws {
        try await withServer { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("PUT /u HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            let interim = try await client.readResponse()
            #expect(interim.status == 100)
            try await client.send("data")
            #expect(try await client.readResponse().text == "PUT /u data")
        }
    }

    @Test func closesAnHTTP10ConnectionByDefault() async throws {
        try await withServer { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET /old HTTP/1.0\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.text == "GET /old ")
            #expect(response.header("Connection") == "close")
            #expect(await client.waitForClose())
        }
    }

    @Test func keepsAnHTTP10ConnectionAliveWhenAsked() async throws {
        try await withServer { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.header("Connection") == "keep-alive")
            try await client.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try await client.readResponse().text == "GET /b ")
        }
    }

    @Test func closesAfterConnectionClose() async throws {
        try await withServer { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(try await client.readResponse().header("Connection") == "close")
            #expect(await client.waitForClose())
        }
    }

    @Test func answersHeadWithTheHeadersOfGetAndNoBody() async throws {
        let responder = TestResponder { _ in HTTPResponse(status: .ok, body: Array("twelve bytes".utf8)) }
        try await withServer(responder: responder) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("HEAD /h HTTP/1.1\r\nHost: x\r\n\r\nGET /g HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await client.readResponse(bodyless: true)
            #expect(head.header("Content-Length") == "12")
            // Had HEAD's answer carried a body, this would read it as the next status line.
            let get = try await client.readResponse()
            #expect(get.status == 200)
            #expect(get.text == "twelve bytes")
        }
    }

    @Test func answersMalformedRequestsWithProblemJSONAndCloses() async throws {
        try await withServer { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("HELLO\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 400)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.header("Connection") == "close")
            #expect(await client.waitForClose())
        }
    }

    @Test func sendsTheServerHeaderWhenConfigured() async throws {
        try await withServer(ServerConfiguration(serverName: "gateway")) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().header("Server") == "gateway")
        }
    }

    @Test func countsEachResponse() async throws {
        let responder = TestResponder { _ in HTTPResponse(status: .created, body: [1, 2, 3]) }
        try await withServer(responder: responder) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("POST /log?secret=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            _ = try await client.readResponse()
            #expect(server.metrics.openConnections == 1)
            #expect(server.metrics.inFlightRequests == 0)
            #expect(server.metrics.totalRequests == 1)
        }
    }

    @Test func cancelsTheHandlerWhenTheClientDisconnects() async throws {
        let (events, recorder) = AsyncStream.makeStream(of: String.self)
        let responder = TestResponder { _ in
            recorder.yield("started")
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    // Never resumed by anyone but cancellation: the handler "waits on an upstream".
                    recorder.yield("waiting")
                    Self.parked.withLock { $0.append(continuation) }
                }
            } onCancel: {
                recorder.yield("cancelled")
                Self.parked.withLock { parked in
                    parked.forEach { $0.resume() }
                    parked.removeAll()
                }
            }
            return HTTPResponse(status: .ok)
        }
        try await withServer(responder: responder) { server in
            let client = try await TestClient.connect(port: server.port)
            try await client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == "started")
            client.close()
            var seen: [String] = []
            while let event = await iterator.next() {
                seen.append(event)
                if event == "cancelled" { break }
            }
            #expect(seen.contains("cancelled"))
        }
    }

    private static let parked = Mutex<[CheckedContinuation<Void, Never>]>([])
}
