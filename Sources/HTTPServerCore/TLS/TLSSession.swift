import COpenSSL
import Glibc

/// One TLS connection (OpenSSL's `SSL`) over a non-blocking socket, driven by the socket's event
/// loop: every call tries OpenSSL first and parks on the loop only when OpenSSL wants the socket
/// readable or writable, so no loop thread ever blocks.
///
/// OpenSSL reads and writes the descriptor itself (`SSL_set_fd`). Reads are read-ahead, so
/// OpenSSL may hold bytes the kernel no longer does; that is why a read always asks OpenSSL
/// first and waits only on `SSL_ERROR_WANT_READ`, which OpenSSL reports only after the socket
/// said `EAGAIN`: the edge-triggered loop then sees the next byte arrive.
///
/// `@unchecked Sendable`: like the socket it belongs to, it is used by one task at a time (the
/// connection's), and hand-overs between tasks go through a lock or a continuation.
final class TLSSession: @unchecked Sendable {
    /// Records carry at most this much; a head and body that fit go out as one record.
    private static let recordSize = 16 * 1024

    private let connection: OpaquePointer
    private let context: TLSContext
    /// The origin (`host:port`) whose sessions a client connection stores and resumes; nil on servers.
    private let origin: String?
    /// Whether the connection's session is stored yet (clients only).
    private var hasStoredSession: Bool

    private init(context: TLSContext, descriptor: Int32, origin: String?) throws(SocketError) {
        guard let connection = SSL_new(context.context) else { throw Self.failure(reason: "cannot create a connection") }
        self.connection = connection
        self.context = context
        self.origin = origin
        hasStoredSession = origin == nil
        guard SSL_set_fd(connection, descriptor) == 1 else { throw Self.failure(reason: "cannot attach the socket") }
    }

    deinit {
        // Marked as shut down, else freeing it would make its session (which the context may keep
        // for the next connection) unresumable: pooled connections are closed without ceremony.
        SSL_set_shutdown(connection, SSL_SENT_SHUTDOWN)
        SSL_free(connection)
    }

    /// A client connection to `host` (a DNS name, or an IP address without brackets): sends it as
    /// SNI when it is a name and verifies the server's certificate against it.
    static func client(context: TLSContext, descriptor: Int32, host: String, port: Int) throws(SocketError) -> TLSSession {
        let session = try TLSSession(context: context, descriptor: descriptor, origin: host + ":" + String(port))
        let connection = session.connection
        if Self.isAddress(host) {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(connection), host) == 1 else {
                throw Self.failure(reason: "cannot verify the address \(host)")
            }
        } else {
            guard c_openssl_set_tlsext_host_name(connection, host) == 1, SSL_set1_host(connection, host) == 1 else {
                throw Self.failure(reason: "cannot verify the host name")
            }
        }
        SSL_set_connect_state(connection)
        context.offerSession(of: host + ":" + String(port), to: connection)
        return session
    }

    /// A server connection accepted on `descriptor`.
    static func server(context: TLSContext, descriptor: Int32) throws(SocketError) -> TLSSession {
        let session = try TLSSession(context: context, descriptor: descriptor, origin: nil)
        SSL_set_accept_state(session.connection)
        return session
    }

    /// Whether this connection resumed an earlier session instead of a full handshake.
    var isResumed: Bool { SSL_session_reused(connection) == 1 }

    /// Runs the handshake to its end, or fails with `.certificateRejected` when the peer's
    /// certificate does not verify, `.timedOut` at `deadline`.
    func handshake(over socket: AsyncSocket, deadline: ContinuousClock.Instant?) async throws(SocketError) {
        while true {
            ERR_clear_error()
            let result = SSL_do_handshake(connection)
            if result == 1 { return }
            let code = SSL_get_error(connection, result)
            let error = errno
            switch code {
            case SSL_ERROR_WANT_READ: try await socket.waitUntilReady(.read, deadline: deadline)
            case SSL_ERROR_WANT_WRITE: try await socket.waitUntilReady(.write, deadline: deadline)
            default:
                let verification = SSL_get_verify_result(connection)
                if verification != X509_V_OK {
                    ERR_clear_error()
                    throw .certificateRejected(reason: String(cString: X509_verify_cert_error_string(verification)))
                }
                throw Self.failure(code: code, errno: error)
            }
        }
    }

    /// Decrypts what is available into `buffer`'s free space; 0 when the peer closed with
    /// `close_notify`. A close without it fails with `.closed`, so a cut-off body is never
    /// taken for a whole one.
    func read(into buffer: inout ReadBuffer, over socket: AsyncSocket, deadline: ContinuousClock.Instant?) async throws(SocketError) -> Int {
        while true {
            ERR_clear_error()
            var code: Int32 = 0
            var error: Int32 = 0
            let count = buffer.writeIntoFreeSpace { space in
                var read = 0
                guard SSL_read_ex(connection, space.baseAddress, space.count, &read) == 1 else {
                    code = SSL_get_error(connection, 0)
                    error = errno
                    return -1
                }
                return read
            }
            if count > 0 {
                if !hasStoredSession, let origin { hasStoredSession = context.storeSession(of: connection, for: origin) }
                return count
            }
            switch code {
            case SSL_ERROR_WANT_READ: try await socket.waitUntilReady(.read, deadline: deadline)
            case SSL_ERROR_WANT_WRITE: try await socket.waitUntilReady(.write, deadline: deadline)
            case SSL_ERROR_ZERO_RETURN: return 0
            default: throw Self.failure(code: code, errno: error)
            }
        }
    }

    /// Encrypts and sends `head` then `body`: one record, so one system call, when both fit.
    ///
    /// The two are joined in a temporary buffer, not one kept per connection, so an idle
    /// connection holds no copy of its last response. Only when the socket cannot take the
    /// record at once (rare: the kernel's send buffer is full) is the copy moved to the heap
    /// for the retries, which OpenSSL lets pass a moved buffer (`SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER`).
    func write(_ head: [UInt8], _ body: [UInt8], over socket: AsyncSocket, deadline: ContinuousClock.Instant?) async throws(SocketError) {
        if body.isEmpty || head.isEmpty || head.count + body.count > Self.recordSize {
            if !head.isEmpty { try await write(head, over: socket, deadline: deadline) }
            if !body.isEmpty { try await write(body, over: socket, deadline: deadline) }
            return
        }
        let firstAttempt = withUnsafeTemporaryAllocation(byteCount: head.count + body.count, alignment: 1) { record in
            record.copyBytes(from: head)
            UnsafeMutableRawBufferPointer(rebasing: record[head.count...]).copyBytes(from: body)
            return attemptWrite(UnsafeRawBufferPointer(record))
        }
        try await finishWrite(head + body, after: firstAttempt, over: socket, deadline: deadline)
    }

    private func write(_ bytes: [UInt8], over socket: AsyncSocket, deadline: ContinuousClock.Instant?) async throws(SocketError) {
        try await finishWrite(bytes, after: bytes.withUnsafeBytes { attemptWrite($0) }, over: socket, deadline: deadline)
    }

    /// One `SSL_write_ex` of all of `bytes`: its `SSL_get_error` code (`SSL_ERROR_NONE` when done) and `errno`.
    private func attemptWrite(_ bytes: UnsafeRawBufferPointer) -> (code: Int32, errno: Int32) {
        ERR_clear_error()
        var written = 0
        guard SSL_write_ex(connection, bytes.baseAddress, bytes.count, &written) == 1 else {
            return (SSL_get_error(connection, 0), errno)
        }
        return (SSL_ERROR_NONE, 0)
    }

    /// Waits for the socket and writes again until OpenSSL has sent all of `bytes`, which are
    /// built only when a retry needs them.
    private func finishWrite(
        _ bytes: @autoclosure () -> [UInt8], after firstAttempt: (code: Int32, errno: Int32),
        over socket: AsyncSocket, deadline: ContinuousClock.Instant?
    ) async throws(SocketError) {
        guard firstAttempt.code != SSL_ERROR_NONE else { return }
        let retained = bytes()
        var attempt = firstAttempt
        while true {
            switch attempt.code {
            case SSL_ERROR_NONE: return
            case SSL_ERROR_WANT_WRITE: try await socket.waitUntilReady(.write, deadline: deadline)
            case SSL_ERROR_WANT_READ: try await socket.waitUntilReady(.read, deadline: deadline)
            default: throw Self.failure(code: attempt.code, errno: attempt.errno)
            }
            attempt = retained.withUnsafeBytes { attemptWrite($0) }
        }
    }

    /// Sends `close_notify`, waiting until `deadline` for the socket to take it; gives up quietly
    /// on any failure, since the connection ends either way. The caller then shuts the socket down.
    func sendCloseNotify(over socket: AsyncSocket, deadline: ContinuousClock.Instant?) async {
        while true {
            ERR_clear_error()
            let result = SSL_shutdown(connection)
            // 0: sent, the peer's has not arrived (nor is it awaited); 1: both sent.
            if result >= 0 { return }
            let code = SSL_get_error(connection, result)
            ERR_clear_error()
            guard code == SSL_ERROR_WANT_WRITE, (try? await socket.waitUntilReady(.write, deadline: deadline)) != nil else { return }
        }
    }

    /// The socket error for a failed OpenSSL call: a peer that went away is `.closed` (with or
    /// without `close_notify`), anything else a TLS failure with OpenSSL's reason.
    private static func failure(code: Int32, errno error: Int32) -> SocketError {
        switch code {
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        case SSL_ERROR_SYSCALL:
            ERR_clear_error()
            return error == 0 ? .closed : .from(call: "TLS", errno: error)
        default:
            let queued = ERR_peek_last_error()
            ERR_clear_error()
            if queued == 0 || c_openssl_error_is_unexpected_eof(queued) == 1 { return .closed }
            return failure(reason: ERR_reason_error_string(queued).map { String(cString: $0) } ?? "protocol error")
        }
    }

    private static func failure(reason: String) -> SocketError {
        ERR_clear_error()
        return .tlsFailed(reason: reason)
    }

    private static func isAddress(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
