import HTTP1
import Synchronization

/// What every connection of one server shares: the responder, the settings and the counters.
final class ConnectionContext: Sendable {
    let responder: any HTTPResponder
    let configuration: ServerConfiguration
    let accessLog: (@Sendable (AccessLogEntry) -> Void)?
    let rejectionLog: (@Sendable (RejectedRequest) -> Void)?
    let metrics: ServerMetrics
    /// `configuration.commonResponseFields`, encoded.
    let commonFields: [UInt8]
    /// The head parser's limits: the configured ones, but for bodies, which are held to
    /// `configuration.limits.maximumBodyBytes` only when the server reads them whole (a handler
    /// that streams a body has limits of its own).
    let parserLimits: HTTPLimits
    private let draining = Atomic<Bool>(false)

    init(
        responder: any HTTPResponder,
        configuration: ServerConfiguration,
        accessLog: (@Sendable (AccessLogEntry) -> Void)?,
        rejectionLog: (@Sendable (RejectedRequest) -> Void)?,
        metrics: ServerMetrics
    ) {
        self.responder = responder
        self.configuration = configuration
        self.accessLog = accessLog
        self.rejectionLog = rejectionLog
        self.metrics = metrics
        commonFields = ResponseHeadWriter.encode(configuration.commonResponseFields)
        var parserLimits = configuration.limits
        parserLimits.maximumBodyBytes = .max
        self.parserLimits = parserLimits
    }

    /// Shutdown has begun: responses say `Connection: close` and no connection waits for another request.
    var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    /// Starts draining; returns false if it had already begun.
    func beginDraining() -> Bool {
        !draining.exchange(true, ordering: .sequentiallyConsistent)
    }
}
