import NetworkRuntime

/// What a server did with bytes a client sent on one connection: every byte it wrote back
/// until it closed, or nil when it neither answered nor closed before the deadline.
struct RawExchange {
    let received: [UInt8]

    /// The status codes of the responses in `received`, in order (each line starting `HTTP/`).
    var statuses: [Int] {
        let text = String(decoding: received, as: UTF8.self)
        return text.split(separator: "\r\n", omittingEmptySubsequences: true).compactMap { line in
            guard line.hasPrefix("HTTP/1.1 ") else { return nil }
            return Int(line.dropFirst(9).prefix(3))
        }
    }

    /// Sends `bytes` on a fresh connection (then half-closes it when `halfClose`), and reads until
    /// the server closes; nil when the connection is still open at `timeout`.
    static func send(_ bytes: [UInt8], to port: Int, halfClose: Bool = false, timeout: Duration = .seconds(5)) async throws -> RawExchange? {
        let socket = try await AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: port), deadline: .now + timeout)
        defer { socket.close() }
        let deadline = ContinuousClock.now + timeout
        do {
            try await socket.write(bytes, deadline: deadline)
        } catch {
            // The server may close before taking everything (an early 4xx): read what it sent.
        }
        if halfClose { await socket.shutdownOutput(deadline: deadline) }
        var buffer = ReadBuffer()
        while true {
            do {
                if try await socket.read(into: &buffer, deadline: deadline) == 0 { break }
            } catch SocketError.timedOut {
                return nil
            } catch {
                break
            }
        }
        return RawExchange(received: buffer.withUnsafeReadableBytes { Array($0) })
    }
}
