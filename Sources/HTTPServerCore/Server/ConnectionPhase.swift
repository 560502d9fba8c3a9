import Synchronization

/// Whether a connection is between requests, so that shutdown can close it without cutting a request.
///
/// The connection moves `idle → busy` when the first byte of a request is in, and `busy → switched`
/// when an answer hands it to another protocol; shutdown moves `idle → closing`. Whichever exchange wins decides: a busy connection finishes its request.
final class ConnectionPhase: Sendable {
    private static let idle: UInt8 = 0
    private static let busy: UInt8 = 1
    private static let closing: UInt8 = 2
    private static let switched: UInt8 = 3

    private let value = Atomic<UInt8>(ConnectionPhase.idle)

    /// Called by the connection when a request begins; false means shutdown claimed it first.
    func beginRequest() -> Bool {
        let (exchanged, original) = value.compareExchange(expected: Self.idle, desired: Self.busy, ordering: .sequentiallyConsistent)
        return exchanged || original == Self.busy
    }

    /// Called by the connection after a response when it will wait for another request.
    func endRequest() {
        _ = value.compareExchange(expected: Self.busy, desired: Self.idle, ordering: .sequentiallyConsistent)
    }

    /// Called by the connection when it has switched protocols (`101`): it stays busy for
    /// shutdown, and the peer closing its side no longer cancels it.
    func switchProtocols() {
        value.store(Self.switched, ordering: .sequentiallyConsistent)
    }

    /// Whether the connection switched protocols.
    var hasSwitchedProtocols: Bool { value.load(ordering: .sequentiallyConsistent) == Self.switched }

    /// Called by shutdown; true when the connection was idle and is now claimed for closing.
    func claimIfIdle() -> Bool {
        value.compareExchange(expected: Self.idle, desired: Self.closing, ordering: .sequentiallyConsistent).exchanged
    }
}
