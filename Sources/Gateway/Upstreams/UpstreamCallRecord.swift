import HTTPBasics
import Upstream

/// One upstream call as the access log shows it.
struct UpstreamCallRecord: Sendable, Equatable {
    /// The call's name (a file endpoint's call, or what the handler named it), else its path
    /// or its link without the query.
    let call: String
    let upstream: String
    let outcome: UpstreamOutcome
    /// The upstream's status code, when it answered.
    let status: Int?
    /// Attempts on the wire, retries included; 0 when none was made (a cached answer, an open circuit).
    var attempts: Int
    let duration: Duration
    /// What the shared cache did, when the call went through it.
    let cache: CacheStatus?
    /// Redirects followed to reach the answer.
    var redirects = 0
    /// What the call's client span says beyond the access log's fields.
    var span = CallSpanFacts()
}

/// What a call's client span needs that the access log does not show: kept as the call is
/// stamped, since a span is made only when the request's trace is exported.
struct CallSpanFacts: Sendable, Equatable {
    /// The `traceparent` sent, whose parent id is the client span's id.
    var traceParent = ""
    var method = HTTPMethod.get
    /// The request's path below the upstream's base URL, or its link without the query.
    var target = ""
    var start: ContinuousClock.Instant?
}
