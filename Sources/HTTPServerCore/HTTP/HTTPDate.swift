import Glibc
import Synchronization

/// The `Date` header value (IMF-fixdate, RFC 9110 §5.6.7), formatted once per second and shared.
enum HTTPDate {
    private struct Cached: Sendable {
        var second: Int
        var bytes: [UInt8]
    }

    private static let cache = Mutex(Cached(second: -1, bytes: []))

    /// Appends the current date, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, to `buffer`.
    static func append(to buffer: inout [UInt8]) {
        let now = time(nil)
        cache.withLock { cached in
            if cached.second != now {
                cached = Cached(second: now, bytes: format(secondsSince1970: now))
            }
            buffer.append(contentsOf: cached.bytes)
        }
    }

    /// IMF-fixdate for a POSIX time, computed with the civil-from-days algorithm (no `gmtime`, no Foundation).
    static func format(secondsSince1970 seconds: Int) -> [UInt8] {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let weekdays: [StaticString] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = ((days % 7) + 7) % 7

        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        let weekdayName = weekdays[weekday]
        bytes.append(contentsOf: UnsafeBufferPointer(start: weekdayName.utf8Start, count: 3))
        bytes.append(contentsOf: ", ".utf8)
        appendDigits(day, count: 2, to: &bytes)
        bytes.append(ASCII.space)
        let monthName = months[month - 1]
        bytes.append(contentsOf: UnsafeBufferPointer(start: monthName.utf8Start, count: 3))
        bytes.append(ASCII.space)
        appendDigits(year, count: 4, to: &bytes)
        bytes.append(ASCII.space)
        appendDigits(secondOfDay / 3600, count: 2, to: &bytes)
        bytes.append(ASCII.colon)
        appendDigits(secondOfDay / 60 % 60, count: 2, to: &bytes)
        bytes.append(ASCII.colon)
        appendDigits(secondOfDay % 60, count: 2, to: &bytes)
        bytes.append(contentsOf: " GMT".utf8)
        return bytes
    }

    private static func appendDigits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10))
            divisor /= 10
        }
    }
}
