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
    /// The `RateLimit` item up to its first value.
    private static let itemStart = Array("\"\(policyName)\";r=".utf8)

    /// The item of `policy`: its count per period as the quota `q` over the window `w`, in seconds.
    static func policyItem(_ policy: RateLimitPolicy) -> String {
        "\"\(policyName)\";q=\(policy.count);w=\(policy.periodSeconds)"
    }

    func add(to headers: inout HTTPHeaders) {
        headers.add("RateLimit-Policy", policy)
        // Written into the string's own storage: appending pieces would grow it and format the
        // integers through their generic descriptions, on every answer of a limited route.
        let start = Self.itemStart
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
