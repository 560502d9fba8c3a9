import COpenSSL
import Glibc
import Synchronization

/// The TLS settings connections share: OpenSSL 3's `SSL_CTX`, built once per trust and
/// certificate configuration and used by every connection made with it.
///
/// A client context verifies like curl and Go: TLS 1.2 at least, the peer's certificate chain
/// against the system's trust store (`SSL_CERT_FILE` and `SSL_CERT_DIR` override where that is,
/// as in OpenSSL's own tools) or against the certificate authorities of one file instead, and
/// the certificate's names or addresses against the host connected to. There is no way to turn
/// verification off. It also keeps the latest session of each origin, so a connection that
/// replaces a pooled one resumes instead of running a full handshake.
///
/// A server context presents a certificate chain and, optionally, requires clients to present
/// one signed by given authorities (mutual TLS). Both sides offer and accept ALPN `http/1.1` only.
///
/// Contexts compare by identity: `HTTPClient` pools connections per context.
public final class TLSContext: Hashable, Sendable {
    /// Whether connections made with the context connect or accept.
    enum Side {
        case client
        case server
    }

    /// `nonisolated(unsafe)`: an `SSL_CTX` is configured only in `init` and, once connections use it,
    /// only read, which OpenSSL allows from any thread (it locks its shared caches itself).
    nonisolated(unsafe) let context: OpaquePointer
    let side: Side
    /// The latest resumable session of each origin (`host:port`), each holding one reference.
    private let sessions = Mutex<[String: ResumableSession]>([:])

    /// One `SSL_SESSION` reference, released when replaced or when the context goes.
    ///
    /// `@unchecked Sendable`: an `SSL_SESSION` is reference counted by OpenSSL with atomic counts
    /// and never changed after it is stored here; it is read only under the `sessions` lock.
    private final class ResumableSession: @unchecked Sendable {
        let session: OpaquePointer
        init(_ session: OpaquePointer) { self.session = session }
        deinit { SSL_SESSION_free(session) }
    }

    private init(side: Side) throws(TLSConfigurationError) {
        guard let context = SSL_CTX_new(side == .client ? TLS_client_method() : TLS_server_method()) else {
            throw Self.failure(.none, "cannot create a context")
        }
        self.context = context
        self.side = side
        guard c_openssl_ctx_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
            throw Self.failure(.none, "cannot require TLS 1.2")
        }
        // Buffers go back while a pooled connection idles; the write buffer may move because a
        // retried write passes an array whose storage may have moved.
        _ = c_openssl_ctx_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        // One `read` takes what the socket holds instead of a record header, then its body.
        _ = c_openssl_ctx_set_read_ahead(context, 1)
        c_openssl_ctx_refuse_passphrases(context)
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A client context verifying servers against `trustedCertificatesFile` (PEM certificate
    /// authorities), or against the system trust store when it is nil, and presenting
    /// `certificateFile` (a PEM chain, leaf first) with `privateKeyFile` when a server asks for
    /// a client certificate. Give both of those or neither.
    public static func client(
        trustedCertificatesFile: String? = nil,
        certificateFile: String? = nil,
        privateKeyFile: String? = nil
    ) throws(TLSConfigurationError) -> TLSContext {
        let tls = try TLSContext(side: .client)
        if let trustedCertificatesFile {
            try tls.trust(trustedCertificatesFile)
        } else if SSL_CTX_set_default_verify_paths(tls.context) != 1 {
            throw failure(.trustedCertificates, "of the system cannot be loaded")
        }
        SSL_CTX_set_verify(tls.context, SSL_VERIFY_PEER, nil)
        let alpn: [UInt8] = [8] + Array("http/1.1".utf8)
        // Returns 0 on success, unlike the rest of OpenSSL.
        guard SSL_CTX_set_alpn_protos(tls.context, alpn, UInt32(alpn.count)) == 0 else {
            throw failure(.none, "cannot offer ALPN")
        }
        try tls.present(certificateFile: certificateFile, privateKeyFile: privateKeyFile)
        return tls
    }

    /// A server context presenting `certificateFile` (a PEM chain, leaf first) with
    /// `privateKeyFile`; with `trustedClientCertificatesFile`, every client must present a
    /// certificate signed by one of its certificate authorities.
    public static func server(
        certificateFile: String,
        privateKeyFile: String,
        trustedClientCertificatesFile: String? = nil
    ) throws(TLSConfigurationError) -> TLSContext {
        let tls = try TLSContext(side: .server)
        try tls.present(certificateFile: certificateFile, privateKeyFile: privateKeyFile)
        if let trustedClientCertificatesFile {
            try tls.trust(trustedClientCertificatesFile)
            SSL_CTX_set_verify(tls.context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }
        SSL_CTX_set_alpn_select_cb(tls.context, c_openssl_select_http11, nil)
        // Resumed sessions must belong to this server's configuration (OpenSSL refuses to resume
        // a verified client's session without an id context).
        let name = Array("swift-bff-gateway".utf8)
        _ = SSL_CTX_set_session_id_context(tls.context, name, UInt32(name.count))
        return tls
    }

    private func trust(_ path: String) throws(TLSConfigurationError) {
        try Self.checkReadable(path, as: .trustedCertificates)
        guard SSL_CTX_load_verify_locations(context, path, nil) == 1 else {
            throw Self.failure(.trustedCertificates, "holds no valid PEM certificate" + Self.openSSLReason)
        }
    }

    private func present(certificateFile: String?, privateKeyFile: String?) throws(TLSConfigurationError) {
        switch (certificateFile, privateKeyFile) {
        case (nil, nil):
            return
        case (nil, _):
            throw Self.failure(.certificate, "is missing: a private key needs its certificate")
        case (_, nil):
            throw Self.failure(.privateKey, "is missing: a certificate needs its private key")
        case (let certificate?, let key?):
            try Self.checkReadable(certificate, as: .certificate)
            guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
                throw Self.failure(.certificate, "holds no valid PEM certificate" + Self.openSSLReason)
            }
            try Self.checkReadable(key, as: .privateKey)
            guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
                throw Self.failure(.privateKey, "holds no unencrypted PEM private key of the certificate" + Self.openSSLReason)
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                throw Self.failure(.privateKey, "does not match the certificate")
            }
        }
    }

    /// Fails with the system's reason when `path` cannot be opened for reading.
    private static func checkReadable(_ path: String, as file: TLSConfigurationError.File) throws(TLSConfigurationError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw failure(file, "cannot be read (\(String(cString: strerror(errno))))")
        }
        close(descriptor)
    }

    /// OpenSSL's reason for the last failure, in parentheses after a space (never file contents).
    private static var openSSLReason: String {
        guard let reason = ERR_reason_error_string(ERR_peek_last_error()) else { return "" }
        return " (" + String(cString: reason) + ")"
    }

    /// The error, after clearing OpenSSL's error queue so its entries do not leak into a later call.
    private static func failure(_ file: TLSConfigurationError.File, _ reason: String) -> TLSConfigurationError {
        ERR_clear_error()
        return TLSConfigurationError(file: file, reason: reason)
    }

    // MARK: Sessions

    /// Lets `connection` resume the latest session of `origin`, if there is one.
    func offerSession(of origin: String, to connection: OpaquePointer) {
        sessions.withLock { sessions in
            guard let stored = sessions[origin] else { return }
            _ = SSL_set_session(connection, stored.session)
        }
    }

    /// Keeps `connection`'s session for the next connection to `origin`; false when it cannot be
    /// resumed (yet: a TLS 1.3 server sends its tickets after the handshake).
    func storeSession(of connection: OpaquePointer, for origin: String) -> Bool {
        guard let session = SSL_get1_session(connection) else { return false }
        guard SSL_SESSION_is_resumable(session) == 1 else {
            SSL_SESSION_free(session)
            return false
        }
        // The session it replaces is released once the lock is given back.
        _ = sessions.withLock { sessions in
            sessions.updateValue(ResumableSession(session), forKey: origin)
        }
        return true
    }

    public static func == (lhs: TLSContext, rhs: TLSContext) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
