import Foundation
import HTTPBasics

/// The `Retry-After` field (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
enum RetryAfter {
    /// How long the upstream asks us to wait, or nil when the field is absent or malformed.
    static func delay(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // A number too large for Int still means "much later than anyone will wait".
            return .seconds(Int(value).map { min($0, longest) } ?? longest)
        }
        guard let date = HTTPDate.secondsSince1970(value) else { return nil }
        return .seconds(min(max(0, date - Int(now.timeIntervalSince1970)), longest))
    }

    private static let longest = 365 * 86_400
}
