import HTTPBasics

/// The `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers-11 for
/// one answer: `RateLimit-Policy: "default";q=20;w=1` and `RateLimit: "default";r=19;t=1`.
struct RateLimitFields: Sendable, Equatable {
    /// The policy's item, the same on every answer of the route.
    let policy: String
    /// Requests the caller may still make at once.
    let remaining: Int
    /// Seconds, rounded up, until it may make one more (until it may make one at all, when refused).
    let reset: Int

    /// The name of the one policy a route has.
    static let policyName = "default"

    /// The item of `policy`: its count per period as the quota `q` over the window `w`, in seconds.
    static func policyItem(_ policy: RateLimitPolicy) -> String {
        "\"\(policyName)\";q=\(policy.count);w=\(policy.periodSeconds)"
    }

    func add(to headers: inout HTTPHeaders) {
        headers.add("RateLimit-Policy", policy)
        // Appended into one buffer of the right size: interpolation would look up the integers'
        // conformances at run time and grow its buffer, on every answer of a limited route.
        var state = String()
        state.reserveCapacity(40)
        state += "\"\(Self.policyName)\";r="
        state += String(remaining)
        state += ";t="
        state += String(reset)
        headers.add("RateLimit", state)
    }
}
