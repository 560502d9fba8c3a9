public import HTTPBasics
public import NetworkRuntime

extension ConnectionTakeover {
    /// A takeover that runs `run` with the switched connection: its socket, and the bytes the
    /// client sent after the request's head.
    public convenience init(_ run: @escaping @Sendable (SwitchedConnection) async -> Void) {
        self.init(handingOver: { connection in
            // The server hands over nothing else (`take(_:)`).
            guard let connection = connection as? SwitchedConnection else { return }
            await run(connection)
        })
    }

    /// Hands `connection` to the new protocol, and returns when that is done with it.
    func take(_ connection: SwitchedConnection) async {
        await run(connection)
    }
}
