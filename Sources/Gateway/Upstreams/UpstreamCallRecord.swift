import Upstream

/// One upstream call as the access log shows it.
struct UpstreamCallRecord: Sendable, Equatable {
    let upstream: String
    let outcome: UpstreamOutcome
    /// The upstream's status code, when it answered.
    let status: Int?
    let duration: Duration
    /// What the shared cache did, when the call went through it.
    let cache: CacheStatus?
    /// Redirects followed to reach the answer.
    var redirects = 0
}
