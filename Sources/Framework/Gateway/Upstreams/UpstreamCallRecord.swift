import HTTPBasics
import UpstreamKit

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
    /// The `traceparent` the call's last attempt sent, whose parent id is that attempt's client
    /// span's id; until the call is recorded, its first attempt's, by which the scope counts its retries.
    var traceParent = ""
    /// When the call started, after the request's arrival.
    var startOffset = Duration.zero
}

/// What a traced call's client spans need that its record does not keep: its method, and the
/// URL it went to with secret query values as `REDACTED`.
struct CallSpanNote: Sendable, Equatable {
    var method: HTTPMethod
    var origin: Origin
    /// The URL, secret query values redacted; nil when no target could be made.
    var url: String?
}

/// The attempts of a call before its last, each sent again: each is a client span of its own.
struct EarlierAttempts: Sendable, Equatable {
    /// One attempt of a call: here, one that failed and was retried.
    struct Attempt: Sendable, Equatable {
        /// The `traceparent` it sent: its span's id.
        var traceParent: String
        var startOffset: Duration
        var duration: Duration
        var outcome: UpstreamOutcome
        /// The upstream's status code, when it answered.
        var status: Int?
    }

    var attempts: [Attempt] = []
    /// The `traceparent` of the attempt sent after them, and when it started after the request's arrival.
    var latest: String
    var latestStartOffset = Duration.zero
}
