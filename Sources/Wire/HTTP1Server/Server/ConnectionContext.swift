import HTTP1
import Synchronization

/// What every connection of one server shares: the responder, the settings and the counters.
final class ConnectionContext: Sendable {
    let responder: any HTTPResponder
    let configuration: ServerConfiguration
    let rejectionLog: (@Sendable (RejectedRequest) -> Void)?
    let metrics: ServerMetrics
    /// `configuration.commonResponseFields`, encoded.
    let commonFields: [UInt8]
    /// The head parser's limits: the configured ones, but for bodies, which are held to
    /// `configuration.limits.maximumBodyBytes` only when the server reads them whole (a handler
    /// that streams a body has limits of its own).
    let parserLimits: HTTPLimits
    private let draining = Atomic<Bool>(false)
    private let closingIdle = Atomic<Bool>(false)

    init(
        responder: any HTTPResponder,
        configuration: ServerConfiguration,
        rejectionLog: (@Sendable (RejectedRequest) -> Void)?,
        metrics: ServerMetrics
    ) {
        self.responder = responder
        self.configuration = configuration
        self.rejectionLog = rejectionLog
        self.metrics = metrics
        commonFields = ResponseHeadWriter.encode(configuration.commonResponseFields)
        var parserLimits = configuration.limits
        parserLimits.maximumBodyBytes = .max
        self.parserLimits = parserLimits
    }

    /// The listener is closed: responses say `Connection: close`.
    var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    /// The window for a last request is over: no connection waits for another request.
    var isClosingIdle: Bool { closingIdle.load(ordering: .sequentiallyConsistent) }

    /// Starts draining (again, harmlessly).
    func beginDraining() {
        draining.store(true, ordering: .sequentiallyConsistent)
    }

    /// Ends the window for a last request; call before claiming the idle connections, so that
    /// one turning idle meanwhile either sees this or is claimed.
    func beginClosingIdle() {
        closingIdle.store(true, ordering: .sequentiallyConsistent)
    }
}
