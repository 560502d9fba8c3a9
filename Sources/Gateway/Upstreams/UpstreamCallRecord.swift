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
    /// The `traceparent` the call sent, whose parent id is its client span's id, and by which
    /// the scope counts its retries.
    var traceParent = ""
    /// When the call started, after the request's arrival.
    var startOffset = Duration.zero
}

/// What a traced call's client span needs that its record does not keep: its method and target
/// (the path below the upstream's base URL, or the link without its query).
struct CallSpanNote: Sendable, Equatable {
    var method: HTTPMethod
    var target: String
}
