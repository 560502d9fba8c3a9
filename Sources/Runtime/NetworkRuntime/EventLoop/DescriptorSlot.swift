/// What the loop knows about one registered file descriptor; slots live in a flat array indexed by fd.
struct DescriptorSlot {
    /// Bumped on every registration, and carried in each epoll event, so events queued for a
    /// closed descriptor are not delivered to a new socket that reuses its number.
    var generation: UInt32 = 0
    var isRegistered = false
    /// Readiness seen while nobody waited (edge-triggered epoll reports each edge once).
    var isReadable = false
    var isWritable = false
    /// The peer hung up (EPOLLRDHUP, EPOLLHUP or EPOLLERR).
    var isPeerClosed = false
    var reader: Waiter?
    var writer: Waiter?
    /// Runs once, on the loop thread, when the peer hangs up.
    var peerClosedAction: (@Sendable () -> Void)?

    mutating func takeWaiter(_ direction: IODirection) -> Waiter? {
        switch direction {
        case .read:
            defer { reader = nil }
            return reader
        case .write:
            defer { writer = nil }
            return writer
        }
    }
}
