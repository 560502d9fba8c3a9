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
    private let draining = Atomic<Bool>(false)
    private let closingIdle = Atomic<Bool>(false)

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
