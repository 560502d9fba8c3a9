import CSystem

/// The epoll event bits the loop registers and interprets.
enum EventMask {
    /// Registered once per descriptor: both directions, peer hang-up, edge-triggered.
    static let registration = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
    /// Wakes a reader: data, or an end of stream / error that the next read reports.
    static let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
    /// Wakes a writer: space, or an error that the next write reports.
    static let writable = EPOLLOUT.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
    static let hangUp = EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
}
