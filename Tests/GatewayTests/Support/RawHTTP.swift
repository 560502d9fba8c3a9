import NetworkRuntime

/// One request written byte for byte on a fresh loopback connection, for what `HTTPClient`
/// refuses to send (a `Host` with a space, a control character in the target, CONNECT).
enum RawHTTP {
    /// Sends `request` (nothing when it is empty) from the loopback address `source` (127.0.0.2
    /// and so on are other clients) and returns everything the server wrote until it closed; the
    /// request should say `Connection: close` unless the server closes by itself.
    static func exchange(_ request: String, port: Int, from source: String = "127.0.0.1", timeout: Duration = .seconds(5)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        let socket = try await connect(port: port, from: source, deadline: deadline)
        defer { socket.close() }
        if !request.isEmpty {
            try await socket.write(Array(request.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }), deadline: deadline)
        }
        var buffer = ReadBuffer()
        while try await socket.read(into: &buffer, deadline: deadline) > 0 {}
        return buffer.withUnsafeReadableBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// A connection to the server on 127.0.0.1 from the loopback address `source`.
    static func connect(port: Int, from source: String, deadline: ContinuousClock.Instant) async throws -> AsyncSocket {
        try await AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: port), from: SocketAddress(host: source, port: 0), deadline: deadline)
    }

    /// The status code of a response's status line, or nil.
    static func status(of response: String) -> Int? {
        guard response.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(response.dropFirst(9).prefix(3))
    }
}
