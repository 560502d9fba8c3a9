import Glibc
import Synchronization

/// A non-blocking listening TCP socket that accepts connections as `AsyncSocket`s.
public final class ListeningSocket: Sendable {
    /// The bound port; the real one when 0 was asked for.
    public let port: Int
    private let socket: AsyncSocket
    /// A descriptor held in reserve: on EMFILE it is closed to make room to accept and drop
    /// one pending connection, so a full table does not leave clients hanging in the backlog.
    private let spareDescriptor = Atomic<Int32>(-1)
    /// Set before the descriptor is closed. The number of a closed descriptor is handed to the
    /// next socket opened anywhere in the process, so an `accept` that starts after `close()`
    /// (a task scheduled late) must not reach it: it could take another listener's connection.
    private let isClosed = Atomic<Bool>(false)

    /// Binds `address` (with SO_REUSEADDR) and listens.
    ///
    /// - Parameter sharesPort: sets SO_REUSEPORT, so that another process of the same user may
    ///   listen on the same address beside this one (the kernel then spreads new connections over
    ///   both), as a new binary does while the old one drains. Not for port 0: a port picked by
    ///   the kernel could then be one another such listener holds.
    public init(address: SocketAddress, backlog: Int32 = 1024, sharesPort: Bool = false, on loop: EventLoop = .shared) throws(SocketError) {
        let descriptor = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .failed(call: "socket", errno: errno) }
        var enabled: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enabled, socklen_t(MemoryLayout<Int32>.size))
        if sharesPort && address.port != 0 {
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &enabled, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.withSocketAddress { pointer, length in Glibc.bind(descriptor, pointer, length) }
        guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let error = errno
            Glibc.close(descriptor)
            throw .failed(call: bound == 0 ? "listen" : "bind", errno: error)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = errno
            Glibc.close(descriptor)
            throw .failed(call: "getsockname", errno: error)
        }
        port = withUnsafeBytes(of: storage) { raw in
            // sin_port and sin6_port both sit right after the 2-byte family, in network byte order.
            Int(UInt16(raw[2]) << 8 | UInt16(raw[3]))
        }
        socket = try AsyncSocket(adopting: descriptor, on: loop)
        spareDescriptor.store(Self.openSpare(), ordering: .relaxed)
    }

    deinit {
        close()
    }

    /// Accepts the next connection and registers it on `loop`. Retries at once on EINTR and
    /// ECONNABORTED; throws `.failed` for EMFILE, ENFILE, ENOBUFS and the like, after which the
    /// caller should back off briefly and call again. `.closed` or `.cancelled` end accepting.
    public func accept(registeringOn loop: EventLoop) async throws(SocketError) -> AsyncSocket {
        while true {
            guard !isClosed.load(ordering: .acquiring) else { throw .closed }
            let error: Int32
            switch try attempt(registeringOn: loop) {
            case .accepted(let socket): return socket
            case .failed(let number): error = number
            }
            switch error {
            case EAGAIN, EWOULDBLOCK: try await socket.waitUntilReady(.read, deadline: nil)
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE:
                shedOnePendingConnection()
                throw .failed(call: "accept4", errno: error)
            case EBADF, EINVAL: throw .closed
            default: throw .failed(call: "accept4", errno: error)
            }
        }
    }

    /// A connection already waiting in the kernel's queue, registered on `loop`; nil when none
    /// is (or the socket is closed). Never waits: a draining server takes what was queued before
    /// it closes, since closing resets the connections still queued.
    public func acceptQueued(registeringOn loop: EventLoop) -> AsyncSocket? {
        while !isClosed.load(ordering: .acquiring) {
            switch try? attempt(registeringOn: loop) {
            case .accepted(let socket): return socket
            case .failed(let error) where error == EINTR || error == ECONNABORTED || error == EPROTO: continue
            default: return nil
            }
        }
        return nil
    }

    /// What one `accept` call gave.
    private enum Attempt {
        case accepted(AsyncSocket)
        /// Its errno.
        case failed(Int32)
    }

    /// One `accept` call, without waiting.
    private func attempt(registeringOn loop: EventLoop) throws(SocketError) -> Attempt {
        // Glibc's Swift module lacks accept4, so flags are set with fcntl (once per connection).
        // The peer's address comes with the call, so knowing it costs no system call of its own.
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let descriptor = withUnsafeMutablePointer(to: &peer) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(socket.descriptor, $0, &length) }
        }
        guard descriptor >= 0 else { return .failed(errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        return .accepted(try AsyncSocket(adopting: descriptor, on: loop, peerIP: IPAddress(peer)))
    }

    /// Stops listening; a pending `accept` throws `.closed`.
    public func close() {
        isClosed.store(true, ordering: .releasing)
        socket.close()
        let spare = spareDescriptor.exchange(-1, ordering: .relaxed)
        if spare >= 0 { Glibc.close(spare) }
    }

    private func shedOnePendingConnection() {
        let spare = spareDescriptor.exchange(-1, ordering: .relaxed)
        guard spare >= 0 else { return }
        Glibc.close(spare)
        let descriptor = Glibc.accept(socket.descriptor, nil, nil)
        if descriptor >= 0 { Glibc.close(descriptor) }
        spareDescriptor.store(Self.openSpare(), ordering: .relaxed)
    }

    private static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
}
