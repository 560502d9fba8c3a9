extension HTTPHeaders {
    /// Fields that belong to one connection or one hop (RFC 9110 §7.6.1), and the proxy
    /// credentials and challenges that belong to one hop too (RFC 9111 §3.1 keeps them out of
    /// caches); `Connection` names more per message.
    private static let hopByHop = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authorization", "proxy-authenticate",
    ]

    /// These fields without the hop-by-hop ones, those their `Connection` fields name, and
    /// `dropped` (names in any case): what an intermediary passes on, or a cache stores.
    public func withoutHopByHopFields(dropping dropped: [String] = []) -> HTTPHeaders {
        var named: [Substring] = []
        for value in values(named: "Connection") {
            for option in value.split(separator: ",") {
                let name = option.trimmingWhitespace
                if !name.isEmpty { named.append(name) }
            }
        }
        var kept = HTTPHeaders()
        kept.reserveCapacity(count + 5)
        for field in self {
            let name = field.name
            let isDropped = Self.hopByHop.contains { name.equalsIgnoringASCIICase($0) }
                || dropped.contains { name.equalsIgnoringASCIICase($0) }
                || named.contains { name.equalsIgnoringASCIICase($0) }
            if !isDropped { kept.add(name, field.value) }
        }
        return kept
    }
}
