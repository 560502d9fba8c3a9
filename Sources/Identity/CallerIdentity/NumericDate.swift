/// RFC 7519 §2's NumericDate, as `exp`, `nbf` and `iat` carry it: seconds since 1970-01-01T00:00:00Z.
///
/// Accepted: a JSON number, fractions allowed, between 0 and 253402300799 (the last second of the
/// year 9999, where calendars and most libraries stop). Refused: anything else, so that a signed
/// `exp` of `1e400` (infinity once read as a double) or `-1e300` cannot mean "never expires" or
/// "valid since forever", and a date beyond what any consumer represents is no date.
enum NumericDate {
    /// The largest value accepted: 9999-12-31T23:59:59Z.
    static let latest = 253_402_300_799.0

    /// The seconds `text` (a JSON number's text) stands for, or nil when it is no NumericDate.
    static func seconds(_ text: some StringProtocol) -> Double? {
        guard let seconds = Double(String(text)), seconds.isFinite, seconds >= 0, seconds <= latest else { return nil }
        return seconds
    }
}
