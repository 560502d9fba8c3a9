import ASCIISyntax
import HTTPBasics

/// The `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers-11 for
/// one answer: `RateLimit-Policy: "default";q=20;w=1` and `RateLimit: "default";r=19;t=1`.
struct RateLimitFields: Sendable, Equatable {
    /// The policy's name (the draft's policy name, §2): the gateway's default (`RATE_LIMIT`), or
    /// a route's own limit, so that a client can tell which one it meets.
    enum PolicyName: String, Sendable {
        case gatewayDefault = "default"
        case route = "route"

        /// The `RateLimit` item up to its first value.
        fileprivate var itemStart: [UInt8] {
            switch self {
            case .gatewayDefault: RateLimitFields.defaultItemStart
            case .route: RateLimitFields.routeItemStart
            }
        }
    }

    let name: PolicyName
    /// The policy's item, the same on every answer of the route.
    let policy: String
    /// Requests the caller may still make at once.
    let remaining: Int
    /// Seconds, rounded up, until it may make one more (until it may make one at all, when refused).
    let reset: Int

    private static let defaultItemStart = Array("\"\(PolicyName.gatewayDefault.rawValue)\";r=".utf8)
    private static let routeItemStart = Array("\"\(PolicyName.route.rawValue)\";r=".utf8)

    /// The item of `policy` named `name`: its count per period as the quota `q` over the window `w`, in seconds.
    static func policyItem(_ policy: RateLimitPolicy, named name: PolicyName) -> String {
        "\"\(name.rawValue)\";q=\(policy.count);w=\(policy.periodSeconds)"
    }

    func add(to headers: inout HTTPHeaders) {
        headers.add("RateLimit-Policy", policy)
        // Written into the string's own storage: appending pieces would grow it and format the
        // integers through their generic descriptions, on every answer of a limited route.
        let start = name.itemStart
        let state = String(unsafeUninitializedCapacity: start.count + 3 + 40) { buffer in
            var index = 0
            for byte in start {
                buffer[index] = byte
                index += 1
            }
            index = DecimalDigits.write(remaining, into: buffer, at: index)
            for byte in ";t=".utf8 {
                buffer[index] = byte
                index += 1
            }
            return DecimalDigits.write(reset, into: buffer, at: index)
        }
        headers.add("RateLimit", state)
    }
}
