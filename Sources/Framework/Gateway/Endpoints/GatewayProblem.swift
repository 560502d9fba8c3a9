import HTTP1Server
import HTTPBasics
import UpstreamKit

/// An error answered to the client as RFC 9457 `application/problem+json`.
///
/// `detail` is written by the gateway, never copied from an upstream, so it cannot leak an
/// upstream body, URL or credential.
public struct GatewayProblem: HTTPResponseError, Equatable, Sendable {
    /// The answer's status.
    public let status: HTTPStatus
    /// The problem's `detail`, shown to the client: never put secrets or upstream bodies here.
    public let detail: String
    /// Sent as `Retry-After` in whole seconds, rounded up.
    let retryAfter: Duration?

    /// A problem answered with `status` and `detail`, and `Retry-After` when `retryAfter` is given.
    public init(_ status: HTTPStatus, _ detail: String, retryAfter: Duration? = nil) {
        self.status = status
        self.detail = detail
        self.retryAfter = retryAfter
    }

    /// `Retry-After` in whole seconds, at least 1.
    var retryAfterSeconds: Int? {
        guard let retryAfter else { return nil }
        let (seconds, attoseconds) = retryAfter.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }

    /// `Retry-After`, when the problem has one.
    public var headers: HTTPHeaders {
        guard let seconds = retryAfterSeconds else { return HTTPHeaders() }
        return ["Retry-After": String(seconds)]
    }

    /// The problem for any error a handler throws: upstream failures and problems map as
    /// documented; cancellation is the client leaving; anything else is a 500 with no details.
    init(_ error: any Error) {
        switch error {
        case let problem as GatewayProblem:
            self = problem
        case let failure as UpstreamFailure:
            self = failure.problem
        case is CancellationError:
            self.init(.clientClosedRequest, "the request was cancelled")
        default:
            self.init(.internalServerError, "the gateway failed to build the response")
        }
    }
}
