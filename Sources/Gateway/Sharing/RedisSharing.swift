import RedisClient

/// The gateway's link to the Redis its replicas share: the client, its health as operators see
/// it (one warning line per change of state, `/metrics`, a `/readyz` detail), and the shared
/// cache tier over it.
///
/// Redis is never needed to answer: while it is down or slow, every command fails within its
/// timeout and requests go on with the replica's own tiers. Its state never fails readiness,
/// since a replica without Redis still serves.
final class RedisSharing: Sendable {
    let client: RedisClient

    /// A client for `configuration` that logs its state changes to `events`; no I/O until
    /// `connect()` or the first command.
    init(_ configuration: RedisConfiguration, events: EventLog) {
        let url = configuration.url
        client = RedisClient(configuration) { transition, cause in
            switch transition {
            case .failed(let retryAfter):
                events.log(
                    .warning,
                    "redis: \(url) unavailable (\(cause.map { "\($0)" } ?? "failed")); requests go on without it, "
                        + "retrying in \(retryAfter.milliseconds) ms and backing off")
            case .recovered:
                events.log(.warning, "redis: \(url) is back; sharing resumes")
            }
        }
    }

    /// `up` or `down`, for `/readyz`.
    var state: String { client.isUp ? "up" : "down" }

    /// The Redis series of `/metrics`.
    func render(into text: inout String) {
        PrometheusText.header(
            "gateway_redis_up", type: "gauge", help: "Whether the shared Redis answered last time it was asked (1) or is being backed off from (0).",
            into: &text)
        text += "gateway_redis_up \(client.isUp ? 1 : 0)\n"
        PrometheusText.header(
            "gateway_redis_errors_total", type: "counter",
            help: "Redis commands and connection attempts that failed or timed out; requests went on without Redis.", into: &text)
        text += "gateway_redis_errors_total \(client.failureCount)\n"
    }
}
