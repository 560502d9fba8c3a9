import COpenSSL
import Glibc

/// One TLS connection (OpenSSL's `SSL`) over a non-blocking socket, driven by the socket's event
/// loop: every call tries OpenSSL first and parks on the loop only when OpenSSL wants the socket
/// readable or writable, so no loop thread ever blocks.
///
/// OpenSSL reads and writes the descriptor itself (`SSL_set_fd`). Reads are read-ahead, so
/// OpenSSL may hold bytes the kernel no longer does; that is why a read asks OpenSSL first and
/// waits only on `SSL_ERROR_WANT_READ`, which OpenSSL reports only after the socket said
/// `EAGAIN`: the edge-triggered loop then sees the next byte arrive. The one exception, as for
/// plain sockets, is a read after OpenSSL's own last read came back short with nothing left
/// buffered (`mayHaveUnreadBytes`). Reads and writes are synchronous attempts that
/// `AsyncSocket` drives with its own wait.
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
    /// 1 when OpenSSL's last read of the socket got fewer bytes than it asked for (see
    /// `mayHaveUnreadBytes`); written by OpenSSL through `c_openssl_track_short_reads`.
    private let shortRead = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    private init(context: TLSContext, descriptor: Int32, origin: String?) throws(SocketError) {
        guard let connection = SSL_new(context.context) else { throw Self.failure(reason: "cannot create a connection") }
        self.connection = connection
        self.context = context
        self.origin = origin
        hasStoredSession = origin == nil
        shortRead.initialize(to: 0)
        guard SSL_set_fd(connection, descriptor) == 1 else { throw Self.failure(reason: "cannot attach the socket") }
        c_openssl_track_short_reads(connection, shortRead)
    }

    deinit {
        // Marked as shut down, else freeing it would make its session (which the context may keep
        // for the next connection) unresumable: pooled connections are closed without ceremony.
        SSL_set_shutdown(connection, SSL_SENT_SHUTDOWN)
        SSL_free(connection)
        shortRead.deallocate()
    }

    /// A client connection to `host` (a DNS name, or an IP address, IPv6 in brackets or not):
    /// sends it as SNI when it is a name and verifies the server's certificate against it.
    static func client(context: TLSContext, descriptor: Int32, host: String, port: Int) throws(SocketError) -> TLSSession {
        let origin = host + ":" + String(port)
        let session = try TLSSession(context: context, descriptor: descriptor, origin: origin)
        let connection = session.connection
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if SocketAddress.literal(literal, port: port) != nil {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(connection), literal) == 1 else {
                throw Self.failure(reason: "cannot verify the address \(host)")
            }
        } else {
            guard c_openssl_set_tlsext_host_name(connection, host) == 1, SSL_set1_host(connection, host) == 1 else {
                throw Self.failure(reason: "cannot verify the host name")
            }
            // Names only from subjectAltName, as Go and browsers check them: OpenSSL would fall
            // back to the subject's common name when a certificate has no DNS name, which RFC 6125
            // deprecates and which lets a certificate never issued for a host name pass as one.
            SSL_set_hostflags(connection, UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT))
        }
        SSL_set_connect_state(connection)
        context.offerSession(of: origin, to: connection)
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

    /// False when OpenSSL holds no bytes and its last read of the socket got fewer than it asked
    /// for: the kernel was empty then, so whatever arrives later brings a readiness event and the
    /// next read may wait for it instead of first paying for a read that finds nothing.
    var mayHaveUnreadBytes: Bool { shortRead.pointee == 0 || SSL_has_pending(connection) == 1 }

    /// What one attempt at a read or write came to.
    enum Attempt {
        /// Bytes read (0: the peer closed with `close_notify`) or written.
        case done(Int)
        /// OpenSSL needs the socket readable or writable first; try again then.
        case wait(IODirection)
        case failed(SocketError)
    }

    /// Decrypts what OpenSSL has or the socket holds into `buffer`'s free space. A close without
    /// `close_notify` fails with `.closed`, so a cut-off body is never taken for a whole one.
    // Never inlined (nor `attemptWrite`): it stays out of the plain path's read.
    @inline(never)
    func attemptRead(into buffer: inout ReadBuffer) -> Attempt {
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
            return .done(count)
        }
        switch code {
        case SSL_ERROR_WANT_READ: return .wait(.read)
        case SSL_ERROR_WANT_WRITE: return .wait(.write)
        case SSL_ERROR_ZERO_RETURN: return .done(0)
        default: return .failed(Self.failure(code: code, errno: error))
        }
    }

    /// Encrypts and sends the next part of `head` then `body` after the first `sent` bytes: both
    /// as one record, so one system call, when they fit in one, else the head, then the body.
    /// After `.wait`, call again with the same arguments: OpenSSL resumes the record it started
    /// (`SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER` lets the joined copy be made anew).
    @inline(never)
    func attemptWrite(_ head: [UInt8], _ body: [UInt8], from sent: Int) -> Attempt {
        if head.isEmpty || body.isEmpty || head.count + body.count > Self.recordSize {
            let part = sent < head.count ? head : body
            return part.withUnsafeBytes { attemptWrite($0) }
        }
        // Joined in a temporary buffer rather than one kept per connection, so an idle
        // connection holds no copy of its last response.
        return withUnsafeTemporaryAllocation(byteCount: head.count + body.count, alignment: 1) { record in
            record.copyBytes(from: head)
            UnsafeMutableRawBufferPointer(rebasing: record[head.count...]).copyBytes(from: body)
            return attemptWrite(UnsafeRawBufferPointer(record))
        }
    }

    private func attemptWrite(_ bytes: UnsafeRawBufferPointer) -> Attempt {
        ERR_clear_error()
        var written = 0
        guard SSL_write_ex(connection, bytes.baseAddress, bytes.count, &written) == 1 else {
            let code = SSL_get_error(connection, 0)
            let error = errno
            switch code {
            case SSL_ERROR_WANT_WRITE: return .wait(.write)
            case SSL_ERROR_WANT_READ: return .wait(.read)
            default: return .failed(Self.failure(code: code, errno: error))
            }
        }
        return .done(bytes.count)
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
}
