import RedisClient
import Synchronization

/// The gateway's link to the Redis its replicas share: the client, its health as operators see
/// it (one warning line per change of state, `/metrics`, a `/readyz` detail), and the shared
/// cache tier over it.
///
/// Redis is never needed to answer: while it is down or slow, every command fails within its
/// timeout and requests go on with the replica's own tiers. Its state never fails readiness,
/// since a replica without Redis still serves.
final class RedisSharing: Sendable {
    let client: RedisClient
    private let events: EventLog
    /// Shared cache entries refused as no replica writes them (`refusedEntry`).
    private let refusedEntries = Atomic<Int>(0)

    /// A client for `configuration` that logs its state changes to `events`; no I/O until
    /// `connect()` or the first command.
    init(_ configuration: RedisConfiguration, events: EventLog) {
        let url = configuration.url
        self.events = events
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

    /// Counts a shared cache entry that was refused (`StoredResponseCoding.decode`), and reports
    /// the first in the log: only something other than a replica writes such entries, and one
    /// line says so without letting whoever it is fill the log.
    func refusedEntry(reason: String) {
        guard refusedEntries.add(1, ordering: .relaxed).newValue == 1 else { return }
        events.log(
            .warning,
            "redis: a shared cache entry was refused (\(reason)) and treated as a miss; something other than the gateway "
                + "writes to its keys (gateway_redis_refused_entries_total counts them; this line is not repeated)")
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
        PrometheusText.header(
            "gateway_redis_refused_entries_total", type: "counter",
            help: "Shared cache entries read from Redis that no replica writes (cut short, or an answer a cache never stores); each was a miss.",
            into: &text)
        text += "gateway_redis_refused_entries_total \(refusedEntries.load(ordering: .relaxed))\n"
    }
}
