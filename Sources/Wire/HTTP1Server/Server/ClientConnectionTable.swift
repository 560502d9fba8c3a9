import NetworkRuntime

/// The open connections of each client, oldest first, so that the server can hold a client to
/// its cap and find the client's oldest connection when it needs one back.
///
/// Clients are keys such as `IPAddress.clientNetwork` gives (an IPv4 address, an IPv6 /64).
/// The table's memory is bounded by what it counts: a client is held only while it has a
/// connection in the table, with one number per connection, so it never holds more entries than
/// the server has connections open, which the server's own cap bounds.
struct ClientConnectionTable {
    /// Each client's connections in the order they were added; ids only grow, so the first is the oldest.
    private var connections: [IPAddress: [UInt64]] = [:]
    /// Connections held, all clients together.
    private(set) var count = 0

    /// Clients with at least one connection in the table.
    var clientCount: Int { connections.count }

    /// `client`'s connections, oldest first; empty when it has none.
    func connections(of client: IPAddress) -> [UInt64] {
        connections[client] ?? []
    }

    /// Adds connection `id` of `client`; `id` must be greater than every id added before.
    mutating func add(_ id: UInt64, of client: IPAddress) {
        connections[client, default: []].append(id)
        count += 1
    }

    /// Removes connection `id` of `client`, and the client with its last connection; does
    /// nothing when the table does not hold it.
    mutating func remove(_ id: UInt64, of client: IPAddress) {
        guard let index = connections[client]?.firstIndex(of: id) else { return }
        // Through the optional subscript, so the array is changed in place rather than copied.
        connections[client]?.remove(at: index)
        if connections[client]?.isEmpty == true { connections[client] = nil }
        count -= 1
    }
}
