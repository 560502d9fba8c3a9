import ASCIISyntax
import Glibc

/// HTTP dates (RFC 9110 §5.6.7): the server's `Date` field, and the dates upstreams send in
/// `Retry-After` and cookie `Expires`.
///
/// It writes IMF-fixdate only and reads leniently, the RFC 6265 §5.1.1 way: tokens may be split
/// by spaces, commas or dashes, so both `Sun, 06 Nov 1994 08:49:37 GMT` and
/// `Sun, 06-Nov-1994 08:49:37 GMT` parse. Neither direction uses Foundation or `gmtime`.
public enum HTTPDate {
    /// Every response carries a `Date`, and it changes once a second.
    private static let current = PerSecondText(format: format(secondsSince1970:))

    /// Appends the current date, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, to `buffer`.
    public static func appendCurrent(to buffer: inout [UInt8]) {
        current.append(second: time(nil), to: &buffer)
    }

    /// The IMF-fixdate of a POSIX time.
    public static func format(secondsSince1970 seconds: Int) -> [UInt8] {
        let weekdays: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let time = CivilTime(secondsSince1970: seconds)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        bytes.append(literal: weekdays[time.weekday])
        bytes.append(literal: ", ")
        DecimalDigits.append(time.day, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(literal: months[time.month - 1])
        bytes.append(UInt8(ascii: " "))
        DecimalDigits.append(time.year, minimumCount: 4, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        DecimalDigits.append(time.hour, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        DecimalDigits.append(time.minute, minimumCount: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        DecimalDigits.append(time.second, minimumCount: 2, to: &bytes)
        bytes.append(literal: " GMT")
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

    /// Seconds since 1970 of an HTTP-date in one of the three forms RFC 9110 §5.6.7 has
    /// recipients accept, exactly as written there (IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`,
    /// RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`, asctime `Sun Nov  6 08:49:37 1994`), or nil.
    ///
    /// Caches read `Expires` and `Date` this way: a date in any other shape (another zone, a
    /// one-digit hour, extra spaces) is invalid, which makes an `Expires` mean "already expired".
    public static func secondsSince1970(strictly value: some StringProtocol) -> Int? {
        let bytes = Array(value.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var result = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                result = result * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return result
        }
        func text(_ range: Range<Int>) -> String? {
            range.upperBound <= bytes.count ? String(decoding: bytes[range], as: UTF8.self) : nil
        }
        func month(at index: Int) -> Int? {
            text(index..<index + 3).flatMap { months.firstIndex(of: $0) }.map { $0 + 1 }
        }
        func time(at index: Int) -> (Int, Int, Int)? {
            guard index + 8 <= bytes.count, bytes[index + 2] == UInt8(ascii: ":"), bytes[index + 5] == UInt8(ascii: ":"),
                  let hour = number(index..<index + 2), let minute = number(index + 3..<index + 5), let second = number(index + 6..<index + 8)
            else { return nil }
            return (hour, minute, second)
        }
        var day: Int?, monthNumber: Int?, year: Int?, clock: (Int, Int, Int)?
        if bytes.count == 29, text(0..<3).map(shortWeekdays.contains) == true, text(3..<5) == ", ", bytes[7] == 32, bytes[11] == 32,
           bytes[16] == 32, bytes[25] == 32, text(26..<29) == "GMT" {
            // IMF-fixdate
            (day, monthNumber, year, clock) = (number(5..<7), month(at: 8), number(12..<16), time(at: 17))
        } else if let comma = bytes.firstIndex(of: UInt8(ascii: ",")), text(0..<comma).map(longWeekdays.contains) == true,
                  bytes.count == comma + 24, text(comma..<comma + 2) == ", ", bytes[comma + 4] == UInt8(ascii: "-"),
                  bytes[comma + 8] == UInt8(ascii: "-"), bytes[comma + 11] == 32, bytes[comma + 20] == 32, text(comma + 21..<comma + 24) == "GMT" {
            // RFC 850, whose two-digit year is read as within 50 years of now (RFC 9110 §5.6.7)
            if let twoDigits = number(comma + 9..<comma + 11) { year = twoDigits < 70 ? 2000 + twoDigits : 1900 + twoDigits }
            (day, monthNumber, clock) = (number(comma + 2..<comma + 4), month(at: comma + 5), time(at: comma + 12))
        } else if bytes.count == 24, text(0..<3).map(shortWeekdays.contains) == true, bytes[3] == 32, bytes[7] == 32, bytes[10] == 32,
                  bytes[19] == 32 {
            // asctime: the day is two digits or a space and one digit
            day = bytes[8] == 32 ? number(9..<10) : number(8..<10)
            (monthNumber, clock, year) = (month(at: 4), time(at: 11), number(20..<24))
        }
        guard let day, let monthNumber, let year, let (hour, minute, second) = clock,
              (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        return daysSince1970(year: year, month: monthNumber, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let shortWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

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
