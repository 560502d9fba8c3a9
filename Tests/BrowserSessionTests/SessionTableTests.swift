import Testing

@testable import BrowserSession

@Suite struct SessionTableTests {
    static func emptyTable() -> SessionTable<String> {
        SessionTable(lifetimes: .init(idle: 10, absolute: 25), capacity: 2)
    }

    @Test func aSessionEndsWhenIdleTooLong() {
        var table = Self.emptyTable()
        table.insert("alice", id: "a", now: 0)
        let uses = [9, 18, 28.5].map { table.use("a", now: $0) }
        #expect(uses == ["alice", "alice", nil])
        #expect(table.count == 0)
    }

    @Test func aBusySessionEndsAtItsAbsoluteLifetime() {
        var table = Self.emptyTable()
        table.insert("alice", id: "a", now: 0)
        let uses = [5, 10, 15, 20, 25.0].map { table.use("a", now: $0) }
        #expect(uses == ["alice", "alice", "alice", "alice", nil])
    }

    @Test func aFullTableDropsTheLeastRecentlyUsed() {
        var table = Self.emptyTable()
        table.insert("alice", id: "a", now: 0)
        table.insert("bob", id: "b", now: 1)
        _ = table.use("a", now: 2)
        table.insert("carol", id: "c", now: 3)
        let bob = table.use("b", now: 4), alice = table.use("a", now: 4)
        #expect(table.count == 2 && bob == nil && alice == "alice")
    }

    @Test func logoutAndBackChannelLogoutEndSessions() {
        var table = Self.emptyTable()
        table.insert("alice", id: "a", now: 0)
        table.insert("alice", id: "a2", now: 0)
        let ended = table.removeAll { $0 == "alice" }
        table.insert("bob", id: "b", now: 0)
        let updated = table.update("b", to: "bob2")
        let removed = table.remove("b")
        let updatedAfterLogout = table.update("b", to: "bob3")
        #expect(ended == 2 && updated && removed == "bob2" && !updatedAfterLogout)
    }
}
