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
    /// Whether the cache tier may use this Redis: false once `checkMemoryPolicy()` found a memory
    /// bound under which cached answers could push out rate-limit state.
    private let cacheAllowed = Atomic<Bool>(true)
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

    /// Whether the shared cache tier may read and write this Redis.
    var allowsCache: Bool { cacheAllowed.load(ordering: .relaxed) }

    /// Asks Redis for its memory bound (`CONFIG GET`), keeps the cache tier off it when cached
    /// answers could push out rate-limit state, and logs one line when there is anything to say
    /// (a bound, or a Redis that would not tell). Once, at start-up, after `connect()` succeeded.
    @discardableResult
    func checkMemoryPolicy() async -> RedisMemoryPolicy {
        let policy = RedisMemoryPolicy(maxmemory: await configValue("maxmemory"), policy: await configValue("maxmemory-policy"))
        cacheAllowed.store(policy.allowsCache, ordering: .relaxed)
        if let line = policy.logLine { events.log(.warning, line) }
        return policy
    }

    /// The reply to `CONFIG GET name` as text, or why there is none.
    private func configValue(_ name: String) async -> Result<[String], RedisMemoryPolicy.Refusal> {
        do {
            switch try await client.send(RedisCommand("CONFIG", ["GET", name])) {
            case .array(let values), .map(let values):
                return .success(values.compactMap { value in
                    switch value {
                    case .bulkString(let bytes): String(decoding: bytes, as: UTF8.self)
                    case .simpleString(let text): text
                    default: nil
                    }
                })
            case let reply:
                return .failure(.init(reason: "CONFIG GET \(name) answered \(reply)"))
            }
        } catch {
            return .failure(.init(reason: "CONFIG GET \(name): \(error)"))
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
