/// Why a `TLSContext` could not be made from its files.
///
/// It names the file's role and what is wrong with it, never the file's contents, so it is safe
/// to print even for a private key.
public struct TLSConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which of the files given to the context is at fault.
    public enum File: Sendable, Equatable {
        /// The certificate authorities trusted to sign the peer's certificate.
        case trustedCertificates
        /// The certificate (chain) presented to the peer.
        case certificate
        /// The private key of that certificate.
        case privateKey
        /// None: OpenSSL itself could not set up a context.
        case none
    }

    public var file: File
    /// What is wrong, such as `cannot be read (No such file or directory)`.
    public var reason: String

    public init(file: File, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String {
        switch file {
        case .trustedCertificates: "the trusted certificates file \(reason)"
        case .certificate: "the certificate file \(reason)"
        case .privateKey: "the private key file \(reason)"
        case .none: "TLS is unavailable: \(reason)"
        }
    }
}
