import NetworkRuntime

/// A one-shot listener on 127.0.0.1 that answers the first request with a response written byte
/// for byte: for framings `HTTPServer` (and so `StubUpstream`) never writes, such as chunked bodies.
enum RawUpstream {
    /// Runs `body` with the port of a listener that answers the first request with `response` verbatim.
    static func serve(_ response: String, _ body: (Int) async throws -> Void) async throws {
        let listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        let serving = Task {
            let socket = try await listener.accept(registeringOn: .shared)
            var buffer = ReadBuffer()
            while !buffer.withUnsafeReadableBytes({ Self.containsEndOfHead($0) }) {
                guard try await socket.read(into: &buffer, deadline: nil) > 0 else { return }
            }
            try await socket.write(Array(response.utf8), deadline: nil)
            socket.close()
        }
        defer {
            serving.cancel()
            listener.close()
        }
        try await body(listener.port)
    }

    private static func containsEndOfHead(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4 else { return false }
        return (3..<bytes.count).contains { bytes[$0 - 3] == 13 && bytes[$0 - 2] == 10 && bytes[$0 - 1] == 13 && bytes[$0] == 10 }
    }
}
