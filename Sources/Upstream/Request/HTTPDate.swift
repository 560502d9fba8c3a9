/// Parses the dates of `Retry-After` and cookie `Expires` (RFC 9110 §5.6.7, RFC 6265 §5.1.1).
///
/// Lenient in the RFC 6265 way: tokens may be split by spaces, commas or dashes, so both
/// `Sun, 06 Nov 1994 08:49:37 GMT` and `Sun, 06-Nov-1994 08:49:37 GMT` parse.
enum HTTPDate {
    /// Seconds since 1970-01-01T00:00:00Z, or nil when `value` is not a date.
    static func secondsSince1970(_ value: some StringProtocol) -> Int? {
        var day: Int?, month: Int?, year: Int?, time: (Int, Int, Int)?
        let tokens = value.utf8.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "-") }
        for token in tokens {
            let text = String(decoding: token, as: UTF8.self)
            if time == nil, let parsed = parseTime(text) {
                time = parsed
            } else if day == nil, token.count <= 2, let number = Int(text) {
                day = number
            } else if month == nil, let index = months.firstIndex(of: text.prefix(3).lowercased()) {
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

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

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
