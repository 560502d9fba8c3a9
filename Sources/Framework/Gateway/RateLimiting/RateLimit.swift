/// Whether and how a route limits each caller's requests.
public enum RateLimit: Sendable, Equatable {
    /// The gateway's default, `RATE_LIMIT` (none when it is unset or `off`).
    case `default`
    /// No limit on this route, whatever `RATE_LIMIT` says.
    case off
    /// This route's own limit, for each caller.
    case limit(RateLimitPolicy)

    /// Reads `off`, `default`, or a policy (`20/s`, `600/min burst 100`).
    public init(parsing text: String) throws(RateLimitSyntaxError) {
        switch text {
        case "off": self = .off
        case "default": self = .default
        default: self = .limit(try RateLimitPolicy(parsing: text))
        }
    }

    /// The policy in force on a route with this setting, when the gateway's default is `gatewayDefault`.
    func policy(default gatewayDefault: RateLimitPolicy?) -> RateLimitPolicy? {
        switch self {
        case .default: gatewayDefault
        case .off: nil
        case .limit(let policy): policy
        }
    }
}
