/// A step of a server's draining shutdown, with its counts, for the log.
public enum DrainStep: Sendable, Equatable {
    /// The listener closed and idle connections with it; `inFlight` requests on `connections`
    /// connections may finish within the grace period.
    case draining(inFlight: Int, connections: Int)
    /// Draining ended: `drained` requests finished in time, `cut` were cancelled when the grace
    /// period ran out.
    case finished(drained: Int, cut: Int)
}
