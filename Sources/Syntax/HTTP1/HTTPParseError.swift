public import HTTPBasics
/// Why a message head or body was refused, with the status to answer the client with.
///
/// `reason` never quotes the offending bytes, so it is safe to send back and to log even when
/// the input carried credentials.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400, 413, 414, 417, 431 or 505.
    public let status: HTTPStatus
    public let reason: String

    public init(status: HTTPStatus, reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status.code) \(reason)" }

    static func badRequest(_ reason: String) -> HTTPParseError {
        HTTPParseError(status: .badRequest, reason: reason)
    }

    static let requestLineTooLong = HTTPParseError(status: .uriTooLong, reason: "request line too long")
    static let headerTooLarge = HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "header section too large")
    static let tooManyHeaders = HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "too many header fields")
    public static let bodyTooLarge = HTTPParseError(status: .contentTooLarge, reason: "body too large")
    static let versionNotSupported = HTTPParseError(status: .httpVersionNotSupported, reason: "HTTP version not supported")
}
