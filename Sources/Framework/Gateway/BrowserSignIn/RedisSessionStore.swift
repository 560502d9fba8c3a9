import BrowserSession
import RedisClient

/// Sessions in the Redis every replica shares, so that any replica serves any browser: each record
/// sealed (`SessionSealer`, AES-256-GCM with `SESSION_ENCRYPTION_KEY`) under a key derived from the
/// session id by SHA-256, so that a reader of Redis sees neither a cookie's value nor a token.
///
/// A record lives as long as the session may: its expiry is the earlier of the idle and the
/// absolute end, moved on by use (written back at most every `touchInterval`, so that a busy
/// session does not cost a write per request). Sets per subject and per provider session id let
/// a back-channel logout find a user's sessions. A refresh holds a lock in Redis (`SET NX PX` with
/// a random token, released only by its holder, given up by a holder that died after
/// `lockLease`), so a rotating refresh token is used once however many replicas ask at once.
///
/// Redis down or answering nonsense is `RedisSessionStore.Unavailable`: the browser is told to
/// try again (503), never signed out by a failure of the store.
final class RedisSessionStore: SessionStore {
    /// Why the store could not answer.
    struct Unavailable: Error, CustomStringConvertible {
        let reason: String
        var description: String { "the session store (Redis) cannot answer: \(reason)" }
    }

    /// What every key of the store starts with; the number changes with the layout.
    static let prefix = "gateway:session:1:"

    private let client: RedisClient
    private let sealer: SessionSealer
    private let lifetimes: SessionTable<SessionRecord>.Lifetimes
    /// The least time between two writes of a session's last use.
    let touchInterval: Double
    /// How long a refresh lock is held at most, should its holder never release it.
    let lockLease: Duration
    /// Refreshes of this replica, one at a time per session, before they ask Redis.
    private let localLocks = KeyedLock()

    init(client: RedisClient, sealer: SessionSealer, lifetimes: SessionTable<SessionRecord>.Lifetimes, lockLease: Duration = .seconds(15)) {
        self.client = client
        self.sealer = sealer
        self.lifetimes = lifetimes
        self.lockLease = lockLease
        touchInterval = min(60, lifetimes.idle / 10)
    }

    func session(_ id: String, now: Double) async throws -> SessionRecord? {
        let key = Self.recordKey(id)
        guard let sealed = try await call({ try await $0.get(key) }) else { return nil }
        guard var record = try? sealer.open(sealed, id: id) else {
            // Sealed with a key no longer known, or not by a replica: no session, and no trace of it.
            _ = try? await client.send(RedisCommand("DEL", [key]))
            return nil
        }
        guard now < record.lastSeenAt + lifetimes.idle, now < record.createdAt + lifetimes.absolute else {
            _ = try await remove(id)
            return nil
        }
        let lastWritten = record.lastSeenAt
        record.lastSeenAt = now
        if now - lastWritten >= touchInterval { _ = try await write(record, onlyIfPresent: true) }
        return record
    }

    func insert(_ record: SessionRecord) async throws {
        var keys = [Self.recordKey(record.id)]
        keys += indexKeys(of: record)
        let arguments = [sealer.seal(record), Array(String(milliseconds(toLive: record)).utf8), Array(Self.hashed(record.id).utf8),
            Array(String(Int(lifetimes.absolute * 1000)).utf8)]
        _ = try await call { try await $0.evaluate(Self.insertScript, keys: keys, arguments: arguments) }
    }

    func update(_ record: SessionRecord) async throws -> Bool {
        try await write(record, onlyIfPresent: true)
    }

    func remove(_ id: String) async throws -> SessionRecord? {
        let key = Self.recordKey(id)
        guard let sealed = try await call({ try await $0.get(key) }) else { return nil }
        let record = try? sealer.open(sealed, id: id)
        let keys = [key] + (record.map(indexKeys(of:)) ?? [])
        _ = try await call { try await $0.evaluate(Self.removeScript, keys: keys, arguments: [Array(Self.hashed(id).utf8)]) }
        return record
    }

    func removeAll(subject: String?, providerSessionID: String?) async throws -> Int {
        let indexes = [subject.map { Self.indexKey("sub", $0) }, providerSessionID.map { Self.indexKey("sid", $0) }].compactMap { $0 }
        guard !indexes.isEmpty else { return 0 }
        let reply = try await call { try await $0.evaluate(Self.removeAllScript, keys: indexes, arguments: [Array(Self.prefix.utf8)]) }
        guard case .integer(let count) = reply else { throw Unavailable(reason: "removing sessions answered \(reply)") }
        return Int(count)
    }

    func withRefreshLock<Result: Sendable>(_ id: String, _ body: @Sendable () async throws -> Result) async throws -> Result {
        try await localLocks.withLock(id) {
            let lock = Self.prefix + "lock:" + Self.hashed(id)
            let token = ProofKey.randomToken()
            try await acquire(lock, token: token)
            do {
                let result = try await body()
                await release(lock, token: token)
                return result
            } catch {
                await release(lock, token: token)
                throw error
            }
        }
    }

    /// `SET NX PX`: the first replica to record the token wins, every other use anywhere is a replay.
    func recordLogoutToken(_ tokenID: String, issuer: String, expiresAt: Double, now: Double) async throws -> Bool {
        let milliseconds = max(1, Int(((expiresAt - now) * 1000).rounded(.up)))
        let key = Self.logoutTokenKey(tokenID, issuer: issuer)
        let reply = try await call { try await $0.send(RedisCommand("SET", [key, "1", "NX", "PX", String(milliseconds)])) }
        switch reply {
        case .simpleString: return true
        case .null: return false
        default: throw Unavailable(reason: "recording a logout token answered \(reply)")
        }
    }

    func forgetLogoutToken(_ tokenID: String, issuer: String) async {
        _ = try? await client.send(RedisCommand("DEL", [Self.logoutTokenKey(tokenID, issuer: issuer)]))
    }

    static func logoutTokenKey(_ tokenID: String, issuer: String) -> String {
        prefix + "logout:" + hashed(issuer + "\u{0}" + tokenID)
    }

    /// Takes the lock named `lock` for `token`, waiting while another replica holds it (at most a
    /// lease and a half: past its lease a lock frees itself).
    private func acquire(_ lock: String, token: String) async throws {
        let lease = String(lockLease.milliseconds)
        let giveUp = ContinuousClock.now.advanced(by: lockLease * 1.5)
        var pause = Duration.milliseconds(10)
        while true {
            let reply = try await call { try await $0.send(RedisCommand("SET", [lock, token, "NX", "PX", lease])) }
            if case .simpleString = reply { return }
            guard ContinuousClock.now < giveUp else { throw Unavailable(reason: "a session's refresh lock was not released") }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(200))
        }
    }

    /// Frees `lock` if `token` still holds it; a lock that lapsed and was taken by another is left
    /// alone. A failure leaves it to lapse.
    private func release(_ lock: String, token: String) async {
        _ = try? await client.evaluate(Self.releaseScript, keys: [lock], arguments: [Array(token.utf8)])
    }

    /// Writes `record` with the expiry its lifetimes give; with `onlyIfPresent`, not if the session
    /// has ended meanwhile. Whether it was written.
    private func write(_ record: SessionRecord, onlyIfPresent: Bool) async throws -> Bool {
        let ttl = milliseconds(toLive: record)
        guard ttl > 0 else { return false }
        var arguments = [Self.recordKey(record.id), "PX", String(ttl)]
        if onlyIfPresent { arguments.append("XX") }
        let command = RedisCommand("SET", [Array(arguments[0].utf8), sealer.seal(record)] + arguments.dropFirst().map { Array($0.utf8) })
        let reply = try await call { try await $0.send(command) }
        return reply != .null
    }

    /// Until the earlier of the session's idle and absolute end, from its last use.
    private func milliseconds(toLive record: SessionRecord) -> Int {
        let end = min(record.lastSeenAt + lifetimes.idle, record.createdAt + lifetimes.absolute)
        return Int(((end - record.lastSeenAt) * 1000).rounded(.up))
    }

    private func indexKeys(of record: SessionRecord) -> [String] {
        [Self.indexKey("sub", record.subject)] + (record.providerSessionID.map { [Self.indexKey("sid", $0)] } ?? [])
    }

    /// `body` on the client, its failure an `Unavailable` that names the command's trouble, never a value.
    private func call<Value>(_ body: (RedisClient) async throws -> Value) async throws(Unavailable) -> Value {
        do {
            return try await body(client)
        } catch {
            throw Unavailable(reason: "\(error)")
        }
    }

    static func hashed(_ text: String) -> String {
        HexDigest.sha256(Array(text.utf8))
    }

    static func recordKey(_ id: String) -> String {
        prefix + hashed(id)
    }

    static func indexKey(_ kind: String, _ value: String) -> String {
        prefix + kind + ":" + hashed(value)
    }

    /// `KEYS[1]` the record, the rest its indexes; `ARGV`: the sealed record, its expiry in
    /// milliseconds, its hashed id, the indexes' expiry (the absolute lifetime).
    static let insertScript = RedisScript(
        """
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        for i = 2, #KEYS do
          redis.call('SADD', KEYS[i], ARGV[3])
          redis.call('PEXPIRE', KEYS[i], ARGV[4])
        end
        return 1
        """)

    /// `KEYS[1]` the record, the rest its indexes; `ARGV[1]` its hashed id.
    static let removeScript = RedisScript(
        """
        redis.call('DEL', KEYS[1])
        for i = 2, #KEYS do redis.call('SREM', KEYS[i], ARGV[1]) end
        return 1
        """)

    /// `KEYS`: one or two indexes, whose common members end; `ARGV[1]` the key prefix. How many
    /// sessions ended.
    static let removeAllScript = RedisScript(
        """
        local ids = redis.call('SINTER', unpack(KEYS))
        local ended = 0
        for _, id in ipairs(ids) do
          ended = ended + redis.call('DEL', ARGV[1] .. id)
          for i = 1, #KEYS do redis.call('SREM', KEYS[i], id) end
        end
        return ended
        """)

    /// `KEYS[1]` the lock; `ARGV[1]` the holder's token.
    static let releaseScript = RedisScript(
        """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """)
}
