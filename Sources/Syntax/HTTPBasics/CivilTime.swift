/// A POSIX time as its UTC calendar date and time of day, computed with Howard Hinnant's
/// civil-from-days algorithm: no `gmtime`, whose glibc implementation takes the time-zone lock
/// on every call, from every thread.
public struct CivilTime: Equatable, Sendable {
    public let year: Int
    /// 1...12
    public let month: Int
    /// 1...31
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// 0 for Sunday through 6 for Saturday.
    public let weekday: Int

    public init(secondsSince1970 seconds: Int) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        // 1970-01-01 was a Thursday.
        weekday = ((days % 7) + 7 + 4) % 7

        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
    }
}
