/// Logs one line per attempt, the request with its secrets redacted, the outcome and the time taken.
public struct LoggingTransport: Transport {
    private let base: any Transport
    private let label: String
    private let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - label: what the lines start with, usually the upstream's name.
    ///   - log: receives each line; it never sees a credential, cookie or response body.
    public init(wrapping base: any Transport, label: String, log: @escaping @Sendable (String) -> Void) {
        self.base = base
        self.label = label
        self.log = log
    }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await base.send(request)
            log("\(label) \(Redaction.describe(request)) -> \(response.status.code) in \(Self.milliseconds(since: start)) ms")
            return response
        } catch {
            log("\(label) \(Redaction.describe(request)) -> \(UpstreamFailure.summary(of: error)) in \(Self.milliseconds(since: start)) ms")
            throw error
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = start.duration(to: .now).components
        return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
    }
}
