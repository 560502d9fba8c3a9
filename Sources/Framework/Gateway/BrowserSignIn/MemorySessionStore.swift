import BrowserSession
import Foundation
import Synchronization

/// Sessions in this replica's memory, over a `SessionTable`: idle and absolute lifetimes, and a bound
/// past which the least recently used session ends. A browser whose next request reaches another
/// replica is signed out there; replicas that share sessions use the Redis store.
final class MemorySessionStore: SessionStore {
    private let table: Mutex<SessionTable<SessionRecord>>
    /// One refresh at a time per session.
    private let locks = KeyedLock()
    /// Logout tokens accepted, against replays.
    private let usedLogoutTokens = Mutex(UsedTokenIDs(capacity: 10_000))

    init(lifetimes: SessionTable<SessionRecord>.Lifetimes, capacity: Int) {
        table = Mutex(SessionTable(lifetimes: lifetimes, capacity: capacity))
    }

    /// Sessions kept, ended ones not yet swept included: the active sessions gauge.
    var count: Int { table.withLock { $0.count } }

    func session(_ id: String, now: Double) async throws -> SessionRecord? {
        table.withLock { table in
            guard var record = table.use(id, now: now) else { return nil }
            record.lastSeenAt = now
            return record
        }
    }

    func insert(_ record: SessionRecord) async throws {
        table.withLock { $0.insert(record, id: record.id, now: record.createdAt) }
    }

    func update(_ record: SessionRecord) async throws -> Bool {
        table.withLock { $0.update(record.id, to: record) }
    }

    func remove(_ id: String) async throws -> SessionRecord? {
        table.withLock { $0.remove(id) }
    }

    func removeAll(subject: String?, providerSessionID: String?) async throws -> Int {
        guard subject != nil || providerSessionID != nil else { return 0 }
        return table.withLock { table in
            table.removeAll { record in
                (subject == nil || record.subject == subject) && (providerSessionID == nil || record.providerSessionID == providerSessionID)
            }
        }
    }

    func recordLogoutToken(_ tokenID: String, issuer: String, expiresAt: Double, now: Double) async throws -> Bool {
        usedLogoutTokens.withLock { $0.recordFirstUse(tokenID, issuer: issuer, expiresAt: expiresAt, now: now) }
    }

    /// Nothing to forget: a memory store's removal never fails.
    func forgetLogoutToken(_ tokenID: String, issuer: String) async {}

    /// Drops every ended session; run now and then so that ended sessions do not wait for the bound.
    func sweep(now: Double) {
        table.withLock { $0.sweep(now: now) }
    }

    func withRefreshLock<Result: Sendable>(_ id: String, _ body: @Sendable () async throws -> Result) async throws -> Result {
        try await locks.withLock(id, body)
    }
}
