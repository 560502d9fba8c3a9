import HTTPBasics

/// When an OTLP export is tried again (the OTLP/HTTP specification's retryable answers): after a
/// 429, 502, 503 or 504, or when the collector could not be reached, with exponential back-off,
/// or the collector's `Retry-After` in seconds when it gave one; never past `attempts`.
struct ExportRetry: Sendable {
    /// Sends of one batch at most, the first included.
    var attempts = 5
    var firstDelay: Duration = .milliseconds(500)
    var longestDelay: Duration = .seconds(30)

    /// The wait before the next send after send `attempt` (from 1) was answered `status` (nil:
    /// no answer) with `retryAfter`; nil when the batch is given up (or was delivered).
    func delay(afterAttempt attempt: Int, status: Int?, retryAfter: String?) -> Duration? {
        guard attempt < attempts else { return nil }
        if let status, ![429, 502, 503, 504].contains(status) { return nil }
        if let retryAfter, let seconds = Int(retryAfter[...].trimmingWhitespace), seconds >= 0 {
            return min(.seconds(seconds), longestDelay)
        }
        return min(firstDelay * (1 << min(attempt - 1, 20)), longestDelay)
    }
}
