import NetworkRuntime

/// A minimal HTTP/1.1 client over `AsyncSocket` for driving the server in tests: it sends raw
/// bytes and parses what comes back, waiting at most `timeout` for each step.
struct TestClient {
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct ProtocolViolation: Error {}

    let socket: AsyncSocket
    private var buffer = ReadBuffer()
    private let timeout: Duration

    /// Connects to the server on 127.0.0.1 from `source`, another loopback address (127.0.0.2,
    /// 127.0.0.3…) for a client the server tells apart from others.
    static func connect(port: Int, from source: String = "127.0.0.1", timeout: Duration = .seconds(5)) async throws -> TestClient {
        let address = try SocketAddress(host: "127.0.0.1", port: port)
        let socket = try await AsyncSocket.connect(to: address, from: SocketAddress(host: source, port: 0), deadline: .now + timeout)
        return TestClient(socket: socket, timeout: timeout)
    }

    private init(socket: AsyncSocket, timeout: Duration) {
        self.socket = socket
        self.timeout = timeout
    }

    func send(_ text: String) async throws {
        try await socket.write(Array(text.utf8), deadline: .now + timeout)
    }

    func close() {
        socket.close()
    }

    /// Reads one response; `bodyless` for the answer to HEAD.
    mutating func readResponse(bodyless: Bool = false) async throws -> Response {
        let deadline = ContinuousClock.now + timeout
        var headEnd: Int?
        while true {
            headEnd = buffer.withUnsafeReadableBytes { bytes in
                guard bytes.count >= 4 else { return nil }
                for index in 0...(bytes.count - 4)
                where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                    return index + 4
                }
                return nil
            }
            if headEnd != nil { break }
            guard try await socket.read(into: &buffer, deadline: deadline) > 0 else { throw ProtocolViolation() }
        }
        guard let headEnd else { throw ProtocolViolation() }
        let headText = buffer.withUnsafeReadableBytes { String(decoding: $0.prefix(headEnd - 4), as: UTF8.self) }
        buffer.consume(headEnd)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw ProtocolViolation() }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingPrefix(" ").description)
        }
        var response = Response(status: status, headers: headers, body: [])
        guard !bodyless, status >= 200, let length = response.header("Content-Length").flatMap({ Int($0) }) else { return response }
        while buffer.readableCount < length {
            guard try await socket.read(into: &buffer, deadline: deadline) > 0 else { throw ProtocolViolation() }
        }
        response.body = buffer.withUnsafeReadableBytes { Array($0.prefix(length)) }
        buffer.consume(length)
        return response
    }

    /// Waits until the server closes the connection; false if it is still open after `timeout`
    /// or sends more bytes first.
    mutating func waitForClose() async -> Bool {
        do {
            return try await socket.read(into: &buffer, deadline: .now + timeout) == 0
        } catch SocketError.closed {
            return true
        } catch {
            return false
        }
    }
}
