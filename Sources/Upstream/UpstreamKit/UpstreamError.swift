import HTTPBasics

/// Why a call to an upstream did not produce a value.
///
/// Associated strings are short, fixed reasons: never a header value or a response body, and no
/// URL but a refused redirect's target, cut down to scheme, host, port and path, so an error can
/// be logged or shown without leaking secrets.
public enum UpstreamError: Error, Sendable, Equatable {
    /// No complete response within the timeout.
    case timedOut
    /// The connection could not be opened, or was refused or reset.
    case connectionFailed(reason: String)
    /// The upstream's TLS certificate did not verify (untrusted, expired, issued for another
    /// host): the verifier's reason, such as `certificate has expired`. Nothing was sent.
    case untrustedCertificate(reason: String)
    /// The upstream answered, with a status that is not a success.
    case status(HTTPStatus, retryAfter: Duration?)
    /// The response broke HTTP framing rules, so it cannot be trusted.
    case invalidResponse(reason: String)
    /// The response arrived but its body is not the value the request expects.
    case decodingFailed(reason: String)
    /// The body is larger than the configured limit (once inflated, when it came compressed).
    case bodyTooLarge(limit: Int)
    /// The body came in a content coding the request did not ask for, or compressed bytes that
    /// are truncated or corrupt: a fixed reason naming the coding.
    case undecodableBody(reason: String)
    /// A link lies outside the upstream's base URL, so no request was sent.
    case refusedLink(String)
    /// The upstream redirected outside its base URL, so the redirect was not followed and nothing
    /// went there; `target` is where it pointed, without userinfo, query or fragment.
    case refusedRedirect(target: String)
    /// The upstream redirected more than `limit` times in a row (a loop, most likely).
    case tooManyRedirects(limit: Int)
    /// The request itself cannot be sent safely (for example a header value holding CR or LF); nothing was sent.
    case invalidRequest(reason: String)
    /// The circuit breaker is open: the upstream failed repeatedly and is resting.
    case circuitOpen(retryAfter: Duration?)
    /// Too many calls to this upstream are already running or waiting; nothing was sent.
    case overloaded
    /// The request's streamed body failed while it was sent (the client's upload broke off,
    /// grew over its limit or stalled).
    case requestBodyFailed(HTTPBodyError)
    /// The calling task was cancelled.
    case cancelled
}
