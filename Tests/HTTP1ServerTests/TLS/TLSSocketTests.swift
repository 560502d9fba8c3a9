import Glibc
import Testing

@testable import NetworkRuntime

/// Records written while the socket's send buffer is full must survive OpenSSL's retries.
@Suite("TLS socket")
struct TLSSocketTests {
    @Test func writesMoreThanTheSendBufferHoldsWithoutLosingBytes() async throws {
        let head = Array(repeating: UInt8(ascii: "h"), count: 100)
        let body = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        let records = 60
        let stub = try TLSStub(tls: try TestCertificates.server()) { socket in
            var size: Int32 = 4096
            // A send buffer smaller than one record: writes find it full.
            setsockopt(socket.descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            for _ in 0..<records {
                try? await socket.write(head, body, deadline: .now + .seconds(5))
            }
            await socket.shutdownOutput(deadline: .now + .seconds(5))
        }
        let socket = try await AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: stub.port), deadline: .now + .seconds(5))
        defer { socket.close() }
        try await socket.startTLS(client: try TestCertificates.client(), host: "localhost", port: stub.port, deadline: .now + .seconds(5))
        var received: [UInt8] = []
        var buffer = ReadBuffer()
        while true {
            let count = try await socket.read(into: &buffer, deadline: .now + .seconds(5))
            if count == 0 { break }
            received += buffer.take(upTo: count)
        }
        #expect(received == Array(repeatElement(head + body, count: records).joined()))
    }
}
