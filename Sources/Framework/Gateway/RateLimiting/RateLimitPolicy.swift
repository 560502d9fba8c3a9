/// How many requests one caller may make to one route: `count` per period at the steady rate,
/// with up to `burst` at once after a quiet spell.
///
/// Written `20/s`, `600/min` or `1000/h`, optionally followed by ` burst N`: `20/s burst 40`.
/// Without a burst, it is `count` (a whole period's requests may come at once).
public struct RateLimitPolicy: Sendable, Equatable, CustomStringConvertible {
    /// Requests per period at the steady rate.
    public let count: Int
    /// The period in seconds: 1, 60 or 3600.
    public let periodSeconds: Int
    /// The most requests admitted at once.
    public let burst: Int

    /// The largest count and burst accepted.
    public static let maximumCount = 1_000_000

    /// The unit of a policy's period.
    public enum Period: Int, Sendable {
        /// `/s`.
        case second = 1
        /// `/min`.
        case minute = 60
        /// `/h`.
        case hour = 3600
    }

    /// `count` requests per `period`, `burst` at once (by default `count`); both are clamped to 1…`maximumCount`.
    public init(_ count: Int, per period: Period, burst: Int? = nil) {
        self.count = min(max(count, 1), Self.maximumCount)
        periodSeconds = period.rawValue
        self.burst = min(max(burst ?? count, 1), Self.maximumCount)
    }

    /// Parses `20/s`, `600/min`, `1000/h`, each optionally followed by ` burst N`.
    public init(parsing text: String) throws(RateLimitSyntaxError) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 1 || (words.count == 3 && words[1] == "burst") else { throw RateLimitSyntaxError(text) }
        let rate = words[0].split(separator: "/", omittingEmptySubsequences: false)
        let units: [Substring: Period] = ["s": .second, "min": .minute, "h": .hour]
        guard rate.count == 2, let count = Self.number(rate[0]), let period = units[rate[1]] else { throw RateLimitSyntaxError(text) }
        var burst: Int?
        if words.count == 3 {
            guard let value = Self.number(words[2]) else { throw RateLimitSyntaxError(text) }
            burst = value
        }
        self.init(count, per: period, burst: burst)
    }

    /// A whole number in 1…`maximumCount`, digits only.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 7, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), (1...maximumCount).contains(value)
        else { return nil }
        return value
    }

    /// The policy as `RATE_LIMIT` writes it: `20/s burst 40`.
    public var description: String {
        let unit = switch periodSeconds {
        case 1: "s"
        case 60: "min"
        default: "h"
        }
        return "\(count)/\(unit)" + (burst == count ? "" : " burst \(burst)")
    }
}
