import HTTP1
public import HTTPBasics
public import NetworkRuntime
/// What a request to switch protocols got (see `HTTPClient.upgrade`).
public enum UpgradeAnswer: Sendable {
    /// The server answered `101 Switching Protocols`: its head (no body), and the connection,
    /// which now belongs to the caller alone and speaks the new protocol.
    case switched(HTTPResponse, SwitchedConnection)
    /// The server answered as to any request: the whole answer; its connection is closed.
    case answered(HTTPResponse)
}

extension HTTPClient {
    /// Sends `request` on a connection of its own, never taken from or returned to the pool, with
    /// `Connection: upgrade` and `Upgrade: protocolName` (`request.headers` carry the new
    /// protocol's other fields), and returns the answer.
    ///
    /// The connection goes the way the pool's would (through the egress proxy when configured,
    /// over TLS with `request.tls`), and the whole exchange up to the answer's head (its body, for
    /// an answer that did not switch) must end within `timeout`. The request asks for no content
    /// coding, so a body comes as the server sent it.
    ///
    /// ```swift
    /// let answer = try await client.upgrade(
    ///     HTTPClientRequest(host: "127.0.0.1", port: 8080, target: "/chat", headers: ["Sec-WebSocket-Version": "13"]),
    ///     to: "websocket", timeout: .seconds(5), maximumResponseBytes: 1 << 20)
    /// if case .switched(_, let connection) = answer { connection.socket.close() }
    /// ```
    public func upgrade(
        _ request: HTTPClientRequest, to protocolName: String, timeout: Duration, maximumResponseBytes: Int
    ) async throws(HTTPClientError) -> UpgradeAnswer {
        guard !Task.isCancelled else { throw .cancelled }
        guard timeout > .zero else { throw .timedOut }
        let deadline = Self.deadline(after: timeout)
        let loop = configuration.eventLoop ?? EventLoop.current ?? .shared
        let isSecure = request.tls != nil
        let route = configuration.proxy?.route(toHost: request.host, port: request.port, isSecure: isSecure) ?? .direct
        let host = Self.hostHeader(host: request.host, port: request.port, isSecure: isSecure)
        var headers = request.headers
        headers.set("Connection", "upgrade")
        headers.set("Upgrade", protocolName)
        var target = request.target
        if case .forward(let proxy) = route {
            target = "http://" + host + target
            if let authorization = proxy.authorization { headers.set("Proxy-Authorization", authorization) }
        }
        var head: [UInt8] = []
        do {
            try RequestHeadWriter.write(method: request.method, target: target, host: host, headers: headers, contentLength: nil, into: &head)
        } catch {
            throw .invalidRequest(reason: Self.reason(error))
        }
        let connectDeadline = min(deadline, Self.deadline(after: configuration.connectTimeout))
        let socket = try await dialer.openSocket(to: request.host, port: request.port, route: route, on: loop, deadline: connectDeadline)
        if let tls = request.tls {
            do {
                try await socket.startTLS(client: tls, host: request.host, port: request.port, deadline: connectDeadline)
            } catch {
                throw ClientConnection.clientError(error)
            }
        }
        var limits = configuration.limits
        limits.maximumBodyBytes = max(maximumResponseBytes, 0)
        let connection = ClientConnection(socket: socket)
        do {
            let answer = try await connection.switchProtocols(head: head, limits: limits, deadline: deadline)
            if case .answered = answer { connection.close() }
            return answer
        } catch {
            connection.close()
            throw error
        }
    }
}
