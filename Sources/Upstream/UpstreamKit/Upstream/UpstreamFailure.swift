/// The error `Upstream.send` throws: which upstream failed, and how.
///
/// Its description is safe for logs and problem details (`upstream swapi answered 503`): it never
/// holds a URL, credential or response body.
public struct UpstreamFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The upstream's name, such as `swapi`.
    public var upstream: String
    public var error: UpstreamError

    public init(upstream: String, error: UpstreamError) {
        self.upstream = upstream
        self.error = error
    }

    public var description: String { "upstream \(upstream) \(Self.summary(of: error))" }

    /// A short phrase for `error` that reads after an upstream's name.
    static func summary(of error: UpstreamError) -> String {
        switch error {
        case .timedOut: "timed out"
        case .connectionFailed(let reason): "could not be reached (\(reason))"
        case .untrustedCertificate(let reason): "presented a certificate that is not trusted: \(reason)"
        case .status(let status, _): "answered \(status.code)"
        case .invalidResponse(let reason): "sent an invalid response (\(reason))"
        case .decodingFailed(let reason): "sent an unexpected body (\(reason))"
        case .bodyTooLarge(let limit): "sent a body over \(limit) bytes"
        case .undecodableBody(let reason): "sent a body that cannot be decoded (\(reason))"
        case .refusedLink(let reason): "link refused (\(reason))"
        case .refusedRedirect(let target): "redirected outside its base URL, to \(target); not followed"
        case .tooManyRedirects(let limit): "redirected more than \(limit) times"
        case .invalidRequest(let reason): "request refused (\(reason))"
        case .circuitOpen: "is failing; circuit open"
        case .overloaded: "has too many calls waiting"
        case .requestBodyFailed(let error): "was not sent the whole request body (\(error))"
        case .cancelled: "call cancelled"
        }
    }
}
