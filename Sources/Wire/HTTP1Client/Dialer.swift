import HTTP1
import HTTPBasics
import NetworkRuntime

/// Opens the TCP connections of `HTTPClient`: to the origin, to the proxy that forwards to it,
/// or through the proxy's `CONNECT` tunnel. Names are resolved off the loop and each of their
/// addresses is tried in turn.
struct Dialer: Sendable {
    let resolver: NameResolver

    /// A socket that carries requests for `host` and `port` along `route`, all before `deadline`:
    /// connected to the origin, to a forwarding proxy, or tunnelled through a proxy to the origin.
    func openSocket(
        to host: String,
        port: Int,
        route: EgressPath,
        on loop: EventLoop,
        deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) -> AsyncSocket {
        switch route {
        case .direct:
            return try await connect(to: host, port: port, on: loop, deadline: deadline)
        case .forward(let proxy):
            return try await connect(to: proxy, on: loop, deadline: deadline)
        case .tunnel(let proxy):
            let socket = try await connect(to: proxy, on: loop, deadline: deadline)
            do {
                try await Self.requestTunnel(to: host, port: port, through: proxy, on: socket, deadline: deadline)
            } catch {
                socket.close()
                throw error
            }
            return socket
        }
    }

    /// Asks the proxy at the other end of `socket` to connect it to `host` and `port`; on
    /// success every later byte on the socket goes to and comes from the origin.
    static func requestTunnel(
        to host: String,
        port: Int,
        through proxy: ProxyServer,
        on socket: AsyncSocket,
        deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) {
        let target = ProxyServer.authority(host: host, port: port)
        guard target.utf8.allSatisfy(FieldSyntax.isVisible) else { throw .invalidRequest(reason: "invalid characters in the host") }
        var head = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let authorization = proxy.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        head += "\r\n"
        func failure(_ error: SocketError) -> HTTPClientError {
            guard error == .closed else { return ClientConnection.clientError(error) }
            return .connectionFailed(reason: "proxy \(proxy.authority) closed the connection before answering CONNECT")
        }
        var buffer = ReadBuffer(capacity: 1024)
        var parser = ResponseHeadParser()
        do {
            try await socket.write(Array(head.utf8), deadline: deadline)
        } catch {
            throw failure(error)
        }
        while true {
            do throws(SocketError) {
                guard try await socket.read(into: &buffer, deadline: deadline) > 0 else { throw .closed }
            } catch {
                throw failure(error)
            }
            let parsed: ParsedResponseHead?
            do {
                parsed = try buffer.withUnsafeReadableBytes { (bytes) throws(HTTPParseError) in
                    try parser.parse(bytes, requestMethod: .connect)
                }
            } catch {
                throw .connectionFailed(reason: "proxy \(proxy.authority) answered CONNECT with an invalid response: \(error.reason)")
            }
            guard let parsed else { continue }
            let status = parsed.head.status.code
            guard (200..<300).contains(status) else {
                throw .connectionFailed(reason: "proxy \(proxy.authority) answered \(status) to CONNECT \(target)")
            }
            // Bytes after the answer would be the origin's, yet the origin speaks only after us.
            guard buffer.readableCount == parsed.length else {
                throw .connectionFailed(reason: "proxy \(proxy.authority) sent bytes after its answer to CONNECT")
            }
            return
        }
    }

    /// A socket connected to the proxy, with connection failures naming the proxy (never its
    /// credentials).
    private func connect(to proxy: ProxyServer, on loop: EventLoop, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> AsyncSocket {
        do {
            return try await connect(to: proxy.host, port: proxy.port, on: loop, deadline: deadline)
        } catch {
            guard case .connectionFailed(let reason) = error else { throw error }
            throw .connectionFailed(reason: "proxy \(proxy.authority): \(reason)")
        }
    }

    private func connect(to host: String, port: Int, on loop: EventLoop, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> AsyncSocket {
        do {
            let addresses = try await resolver.addresses(of: host, port: port, on: loop, deadline: deadline)
            return try await AsyncSocket.connect(toAnyOf: addresses, on: loop, deadline: deadline)
        } catch {
            throw Self.clientError(error)
        }
    }

    private static func clientError(_ error: SocketError) -> HTTPClientError {
        switch error {
        case .closed: .connectionFailed(reason: "connection refused")
        default: ClientConnection.clientError(error)
        }
    }
}
