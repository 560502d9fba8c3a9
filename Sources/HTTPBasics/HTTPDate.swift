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
