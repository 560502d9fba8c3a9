import NetworkRuntime

/// Whose requests to which route one stored state counts: a caller known by its verified token's
/// `sub`, or else by its address, on one route.
struct RateLimitKey: Hashable, Sendable, CustomStringConvertible {
    /// Who is calling.
    enum Caller: Hashable, Sendable, CustomStringConvertible {
        /// A verified token's `sub`, at most `maximumSubjectBytes` of it.
        case subject(String)
        /// The client's address as `TrustedProxies` found it: an IPv4 address, or an IPv6 /64 network.
        case address(IPAddress)

        /// `sub:alice`, `ip:192.0.2.1` or `ip:2001:db8::`: the namespaces keep a subject from ever equalling an address.
        var description: String {
            switch self {
            case .subject(let subject): "sub:\(subject)"
            case .address(let address): "ip:\(address)"
            }
        }
    }

    /// The longest part of a `sub` kept, so that a caller with a very long one costs the table no more.
    static let maximumSubjectBytes = 256

    /// The route's index in the gateway's table of limited routes.
    let route: Int
    let caller: Caller

    init(route: Int, caller: Caller) {
        self.route = route
        self.caller = caller
    }

    /// The key of `subject` when it is non-empty, else of `address`; nil when neither is known
    /// (a request built in process), which is not limited.
    init?(route: Int, subject: String?, address: IPAddress?) {
        if let subject, !subject.isEmpty {
            let kept = subject.utf8.count <= Self.maximumSubjectBytes
                ? subject : String(decoding: subject.utf8.prefix(Self.maximumSubjectBytes), as: UTF8.self)
            self.init(route: route, caller: .subject(kept))
        } else if let address {
            self.init(route: route, caller: .address(address.clientNetwork))
        } else {
            return nil
        }
    }

    /// `3:sub:alice`, `3:ip:192.0.2.1` or `3:ip:2001:db8::`.
    var description: String { "\(route):\(caller)" }
}
