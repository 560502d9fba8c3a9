import NetworkRuntime
import Synchronization

/// A `CONNECT` proxy for tests, on the package's own sockets: it records each request head,
/// then either answers 200 and relays bytes both ways to 127.0.0.1 at the requested port
/// (whatever the requested host, so tests can use names nobody resolves), or refuses with a
/// fixed status.
final class TunnellingProxy: Sendable {
    let port: Int
    private let listener: ListeningSocket
    private let refusal: Int?
    private let received = Mutex<[String]>([])

    /// - Parameter refusal: the status to answer every `CONNECT` with, or nil to tunnel.
    init(refusing refusal: Int? = nil) throws {
        listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        port = listener.port
        self.refusal = refusal
        Task { await self.acceptConnections() }
    }

    /// The request heads received so far, each up to and including its blank line.
    var heads: [String] { received.withLock { $0 } }

    func stop() {
        listener.close()
    }

    private func acceptConnections() async {
        while let client = try? await listener.accept(registeringOn: .shared) {
            Task { await self.serve(client) }
        }
    }

    private func serve(_ client: AsyncSocket) async {
        defer { client.close() }
        let deadline = ContinuousClock.now + .seconds(10)
        var buffer = ReadBuffer()
        var head: [UInt8] = []
        while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            if buffer.isEmpty {
                guard let count = try? await client.read(into: &buffer, deadline: deadline), count > 0 else { return }
            }
            head.append(contentsOf: buffer.take(upTo: 1))
        }
        let text = String(decoding: head, as: UTF8.self)
        received.withLock { $0.append(text) }
        if let refusal {
            try? await client.write(Array("HTTP/1.1 \(refusal) Refused\r\nContent-Length: 0\r\n\r\n".utf8), deadline: deadline)
            return
        }
        let target = text.split(separator: " ").dropFirst().first ?? ""
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]),
              let origin = try? await AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: port), on: .shared, deadline: deadline)
        else {
            try? await client.write(Array("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n".utf8), deadline: deadline)
            return
        }
        defer { origin.close() }
        guard (try? await client.write(Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8), deadline: deadline)) != nil else { return }
        let upstream = Task { await Self.relay(from: client, to: origin) }
        await Self.relay(from: origin, to: client)
        await upstream.value
    }

    /// Copies bytes until `source` closes, then closes `destination`'s sending side.
    private static func relay(from source: AsyncSocket, to destination: AsyncSocket) async {
        var buffer = ReadBuffer()
        while let count = try? await source.read(into: &buffer, deadline: nil), count > 0 {
            let bytes = Array(buffer.take(upTo: buffer.readableCount))
            guard (try? await destination.write(bytes, deadline: nil)) != nil else { break }
        }
        await destination.shutdownOutput(deadline: nil)
    }
}
