import Glibc
import Synchronization

/// A non-blocking TCP socket registered on an `EventLoop`, read and written from async code,
/// in clear text or, after `startTLS`, through TLS.
///
/// Every operation tries its system call first and suspends only on `EAGAIN`. Waits end with
/// `SocketError.timedOut` at their deadline and `SocketError.cancelled` when the task is cancelled.
/// One task reads and one task writes at a time; `close()` may be called from anywhere, once
/// no operation is running on another thread.
public final class AsyncSocket: Sendable {
    /// The file descriptor, for logging and socket options.
    public let descriptor: Int32
    /// The loop that watches this socket.
    public let loop: EventLoop
    /// The peer's address as `accept` gave it; nil for a socket this process connected.
    public let peerIP: IPAddress?
    private let generation: UInt32
    private let isClosed = Atomic<Bool>(false)
    /// False after a read that returned less than the space it offered: the kernel's receive
    /// queue was empty then, and with edge-triggered epoll any byte arriving later brings a new
    /// event. The next read then waits for that event instead of first paying for a `read` that
    /// fails with `EAGAIN` (the common case: a request just sent, a response just written).
    /// Touched only by the one task reading.
    private let mayHaveUnreadBytes = Atomic<Bool>(true)
    /// The TLS connection over this socket once a handshake succeeded; nil for plain TCP.
    // `nonisolated(unsafe)`: written once, by the task that owns the socket, before that task's
    // first read or write through it, and before the socket reaches any other task (through a
    // lock or a continuation, which orders this write before that task's reads); never after.
    // Unchecked exclusivity for the same reason: no access can overlap another, so the run-time
    // check on every plain read and write would only cost time.
    @exclusivity(unchecked)
    private nonisolated(unsafe) var tls: TLSSession?

    /// Takes ownership of a connected, non-blocking descriptor and registers it on `loop`;
    /// closes it if registration fails.
    init(adopting descriptor: Int32, on loop: EventLoop, peerIP: IPAddress? = nil) throws(SocketError) {
        var enabled: Int32 = 1
        // Without TCP_NODELAY a small response waits for the peer's delayed ACK (Nagle).
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
        do {
            generation = try loop.register(descriptor)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.loop = loop
        self.peerIP = peerIP
    }

    deinit {
        close()
    }

    /// Opens a TCP connection to `address`, giving up at `deadline`. By default the socket goes
    /// on the caller's loop (when called from a loop's task), else on the shared one.
    ///
    /// - Parameter source: the local address to connect from (its port 0 picks a free one), such
    ///   as one of several on the host; nil lets the system choose.
    public static func connect(
        to address: SocketAddress,
        from source: SocketAddress? = nil,
        on loop: EventLoop = EventLoop.current ?? .shared,
        deadline: ContinuousClock.Instant
    ) async throws(SocketError) -> AsyncSocket {
        let descriptor = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .failed(call: "socket", errno: errno) }
        if let source {
            let bound = source.withSocketAddress { pointer, length in (Glibc.bind(descriptor, pointer, length), errno) }
            guard bound.0 == 0 else {
                Glibc.close(descriptor)
                throw .failed(call: "bind", errno: bound.1)
            }
        }
        // Registered only after connect() starts: epoll reports an unconnected socket as hung up,
        // and that stale EPOLLHUP would mark the new connection closed before it is used.
        let (result, error) = address.withSocketAddress { pointer, length in
            (Glibc.connect(descriptor, pointer, length), errno)
        }
        guard result == 0 || error == EINPROGRESS || error == EINTR else {
            Glibc.close(descriptor)
            throw .failed(call: "connect", errno: error)
        }
        let socket = try AsyncSocket(adopting: descriptor, on: loop)
        if result == 0 { return socket }
        do {
            try await socket.waitUntilReady(.write, deadline: deadline)
        } catch {
            socket.close()
            throw error
        }
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length)
        guard pending == 0 else {
            socket.close()
            throw .failed(call: "connect", errno: pending)
        }
        return socket
    }

    /// Reads what is available into `buffer`'s free space; returns the byte count, 0 when the
    /// peer closed its side.
    ///
    /// Over TLS, each attempt asks OpenSSL (which may hold decrypted or read-ahead bytes) and waits
    /// only when it wants the socket; both paths share one wait, so the plain path's async frame,
    /// which every caller's frame reserves, does not grow for TLS.
    public func read(into buffer: inout ReadBuffer, deadline: ContinuousClock.Instant?) async throws(SocketError) -> Int {
        if !mayHaveUnreadBytes.load(ordering: .relaxed) {
            try await waitUntilReady(.read, deadline: deadline)
        }
        while true {
            var direction = IODirection.read
            if let tls {
                switch tls.attemptRead(into: &buffer) {
                case .done(let count):
                    mayHaveUnreadBytes.store(count == 0 || tls.mayHaveUnreadBytes, ordering: .relaxed)
                    return count
                case .wait(let wanted): direction = wanted
                case .failed(let error): throw error
                }
            } else {
                var error: Int32 = 0
                var offered = 0
                let count = buffer.writeIntoFreeSpace { space in
                    offered = space.count
                    let count = Glibc.read(descriptor, space.baseAddress, space.count)
                    if count < 0 { error = errno }
                    return count
                }
                if count >= 0 {
                    mayHaveUnreadBytes.store(count == 0 || count == offered, ordering: .relaxed)
                    return count
                }
                switch error {
                case EAGAIN, EWOULDBLOCK: break
                case EINTR: continue
                default: throw .from(call: "read", errno: error)
                }
            }
            try await waitUntilReady(direction, deadline: deadline)
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) async throws(SocketError) {
        try await write(bytes, [], deadline: deadline)
    }

    /// Writes `head` then `body` with one `sendmsg` (gathering both) per attempt, so a response
    /// leaves in one segment and never meets Nagle's algorithm; partial writes continue where they stopped.
    /// Over TLS, head and body leave as one record when they fit in one, as in `read` sharing the
    /// plain path's one wait.
    public func write(_ head: [UInt8], _ body: [UInt8], deadline: ContinuousClock.Instant?) async throws(SocketError) {
        var sent = 0
        let total = head.count + body.count
        while sent < total {
            var direction = IODirection.write
            if let tls {
                switch tls.attemptWrite(head, body, from: sent) {
                case .done(let count):
                    sent += count
                    continue
                case .wait(let wanted): direction = wanted
                case .failed(let error): throw error
                }
            } else {
                let (count, error) = head.withUnsafeBytes { head in
                    body.withUnsafeBytes { body in
                        send(
                            UnsafeRawBufferPointer(rebasing: head[min(sent, head.count)...]),
                            UnsafeRawBufferPointer(rebasing: body[max(sent - head.count, 0)...])
                        )
                    }
                }
                if count >= 0 {
                    sent += count
                    continue
                }
                switch error {
                case EAGAIN, EWOULDBLOCK: break
                case EINTR: continue
                default: throw .from(call: "sendmsg", errno: error)
                }
            }
            try await waitUntilReady(direction, deadline: deadline)
        }
    }

    private func send(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> (Int, Int32) {
        var vectors = (
            iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
            iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count)
        )
        return withUnsafeMutablePointer(to: &vectors) { tuple in
            tuple.withMemoryRebound(to: iovec.self, capacity: 2) { vectors in
                var message = msghdr()
                message.msg_iov = first.isEmpty ? vectors + 1 : vectors
                message.msg_iovlen = first.isEmpty || second.isEmpty ? 1 : 2
                // MSG_NOSIGNAL: a peer that went away yields EPIPE instead of killing the process.
                let count = sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL))
                return (count, count < 0 ? errno : 0)
            }
        }
    }

    /// Runs a TLS client handshake with `host` (a DNS name, or an IP address)
    /// at `port` under `context`, verifying the server's certificate against `host`; afterwards
    /// every read and write goes through TLS. Fails with `.certificateRejected` before anything
    /// else is sent when the certificate does not verify, `.timedOut` at `deadline`. The socket
    /// is closed when the handshake fails.
    public func startTLS(client context: TLSContext, host: String, port: Int, deadline: ContinuousClock.Instant?) async throws(SocketError) {
        do {
            let session = try TLSSession.client(context: context, descriptor: descriptor, host: host, port: port)
            try await session.handshake(over: self, deadline: deadline)
            tls = session
        } catch {
            close()
            throw error == .closed ? .tlsFailed(reason: "connection closed during the handshake") : error
        }
    }

    /// Runs a TLS server handshake under `context`; afterwards every read and write goes through
    /// TLS. The socket is closed when the handshake fails.
    public func startTLS(server context: TLSContext, deadline: ContinuousClock.Instant?) async throws(SocketError) {
        do {
            let session = try TLSSession.server(context: context, descriptor: descriptor)
            try await session.handshake(over: self, deadline: deadline)
            tls = session
        } catch {
            close()
            throw error
        }
    }

    /// Whether the TLS handshake resumed an earlier session; false for plain TCP.
    public var isTLSSessionResumed: Bool { tls?.isResumed ?? false }

    /// Whether the peer has hung up (EPOLLRDHUP/EPOLLHUP seen), without reading; a pooled
    /// connection for which this is true must not be reused.
    public var isPeerClosed: Bool {
        isClosed.load(ordering: .acquiring) || loop.isPeerClosed(descriptor, generation: generation)
    }

    /// Runs `action` once, on the loop thread, when the peer hangs up (at once if it already has).
    /// Keep it short: cancel a task, set a flag.
    public func whenPeerCloses(_ action: @escaping @Sendable () -> Void) {
        loop.whenPeerCloses(descriptor, generation: generation, action)
    }

    /// Sends FIN after what has been written (over TLS, after `close_notify`, waiting until
    /// `deadline` for room to send it), keeping the socket open for reading; used to close
    /// gracefully so that a response is not destroyed by a reset while the peer is still sending.
    public func shutdownOutput(deadline: ContinuousClock.Instant?) async {
        guard !isClosed.load(ordering: .acquiring) else { return }
        if let tls { await tls.sendCloseNotify(over: self, deadline: deadline) }
        Glibc.shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the socket and resumes any waiting task with `SocketError.closed`; later calls do nothing.
    public func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop.deregister(descriptor, generation: generation)
        Glibc.close(descriptor)
    }

    // Inlined: one async frame less for every wait.
    @inline(__always)
    func waitUntilReady(_ direction: IODirection, deadline: ContinuousClock.Instant?) async throws(SocketError) {
        switch await loop.wait(for: direction, on: descriptor, generation: generation, deadline: deadline) {
        case .ready: return
        case .timedOut: throw .timedOut
        case .cancelled: throw .cancelled
        case .closed: throw .closed
        }
    }
}
