import Glibc
import Synchronization

/// HTTP dates (RFC 9110 §5.6.7): the server's `Date` field, and the dates upstreams send in
/// `Retry-After` and cookie `Expires`.
///
/// It writes IMF-fixdate only and reads leniently, the RFC 6265 §5.1.1 way: tokens may be split
/// by spaces, commas or dashes, so both `Sun, 06 Nov 1994 08:49:37 GMT` and
/// `Sun, 06-Nov-1994 08:49:37 GMT` parse. Neither direction uses Foundation or `gmtime`.
public enum HTTPDate {
    private struct Cached: Sendable {
        var second: Int
        var bytes: [UInt8]
    }

    /// Every response carries a `Date`, and it changes once a second: format it once per second
    /// for all connections.
    private static let cache = Mutex(Cached(second: -1, bytes: []))

    /// Appends the current date, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, to `buffer`.
    public static func appendCurrent(to buffer: inout [UInt8]) {
        let now = time(nil)
        cache.withLock { cached in
            if cached.second != now {
                cached = Cached(second: now, bytes: format(secondsSince1970: now))
            }
            buffer.append(contentsOf: cached.bytes)
        }
    }

    /// The IMF-fixdate of a POSIX time, computed with Howard Hinnant's civil-from-days algorithm.
    public static func format(secondsSince1970 seconds: Int) -> [UInt8] {
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
        DecimalDigits.append(day, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        let monthName = months[month - 1]
        bytes.append(contentsOf: UnsafeBufferPointer(start: monthName.utf8Start, count: 3))
        bytes.append(UInt8(ascii: " "))
        DecimalDigits.append(year, minimumCount: 4, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        DecimalDigits.append(secondOfDay / 3600, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        DecimalDigits.append(secondOfDay / 60 % 60, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        DecimalDigits.append(secondOfDay % 60, minimumCount: 2, to: &bytes)
        bytes.append(contentsOf: " GMT".utf8)
        return bytes
    }

    /// Seconds since 1970-01-01T00:00:00Z, or nil when `value` is not a date.
    public static func secondsSince1970(_ value: some StringProtocol) -> Int? {
        var day: Int?, month: Int?, year: Int?, time: (Int, Int, Int)?
        let tokens = value.utf8.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "-") }
        for token in tokens {
            let text = String(decoding: token, as: UTF8.self)
            if time == nil, let parsed = parseTime(text) {
                time = parsed
            } else if day == nil, token.count <= 2, let number = Int(text) {
                day = number
            } else if month == nil, let index = lowercasedMonths.firstIndex(of: text.prefix(3).lowercased()) {
                month = index + 1
            } else if year == nil, token.count == 4 || token.count == 2, let number = Int(text) {
                year = token.count == 2 ? (number < 70 ? 2000 + number : 1900 + number) : number
            }
        }
        guard let day, let month, let year, let (hour, minute, second) = time,
              (1...31).contains(day), year >= 1601, hour < 24, minute < 60, second < 61
        else { return nil }
        return daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    private static let lowercasedMonths = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func parseTime(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]) else { return nil }
        return (hour, minute, second)
    }

    /// Howard Hinnant's days-from-civil for the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
