import Synchronization

/// Whether a connection is between requests, so that shutdown, or a new connection that finds
/// the server or its client at the cap, can close it without cutting a request.
///
/// The connection starts `fresh`, moves to `busy` when the first byte of a request is in, and to
/// `keptAlive` after a response when it waits for another, or to `switched` when an answer hands it
/// to another protocol. Shutdown moves a `fresh` or `keptAlive` connection to `closing`; a cap
/// reclaiming a place moves only a `keptAlive` one. Whichever exchange wins decides: a busy or
/// switched connection finishes its work.
final class ConnectionPhase: Sendable {
    private static let keptAlive: UInt8 = 0
    private static let busy: UInt8 = 1
    private static let closing: UInt8 = 2
    private static let fresh: UInt8 = 3
    private static let switched: UInt8 = 4

    private let value = Atomic<UInt8>(ConnectionPhase.fresh)

    /// Called by the connection when a request begins; false means shutdown or a reclaim claimed it first.
    func beginRequest() -> Bool {
        let (exchanged, original) = value.compareExchange(expected: Self.keptAlive, desired: Self.busy, ordering: .sequentiallyConsistent)
        if exchanged || original == Self.busy { return true }
        return original == Self.fresh
            && value.compareExchange(expected: Self.fresh, desired: Self.busy, ordering: .sequentiallyConsistent).exchanged
    }

    /// Called by the connection after a response when it will wait for another request.
    func endRequest() {
        _ = value.compareExchange(expected: Self.busy, desired: Self.keptAlive, ordering: .sequentiallyConsistent)
    }

    /// Called by the connection when it has switched protocols (`101`): it stays busy for
    /// shutdown and reclaims, and the peer closing its side no longer cancels it.
    func switchProtocols() {
        value.store(Self.switched, ordering: .sequentiallyConsistent)
    }

    /// Whether the connection switched protocols.
    var hasSwitchedProtocols: Bool { value.load(ordering: .sequentiallyConsistent) == Self.switched }

    /// Called by shutdown; true when the connection was waiting for a request (its first or a
    /// later one) and is now claimed for closing.
    func claimIfIdle() -> Bool {
        claimIfKeptAlive()
            || value.compareExchange(expected: Self.fresh, desired: Self.closing, ordering: .sequentiallyConsistent).exchanged
    }

    /// Called when a new connection needs this one's place; true when it had answered a request
    /// and was waiting for the next, and is now claimed for closing. A fresh connection is left
    /// alone: its client has not been answered yet, and may not retry a request it loses.
    func claimIfKeptAlive() -> Bool {
        value.compareExchange(expected: Self.keptAlive, desired: Self.closing, ordering: .sequentiallyConsistent).exchanged
    }

    /// Whether the connection waits for another request after answering one (a hint: it may change at once).
    var isKeptAlive: Bool { value.load(ordering: .relaxed) == Self.keptAlive }
}
