import HTTP1
import HTTP1Server
import HTTPBasics
import Synchronization

/// The gateway a server answers with, which a reload replaces whole: each request is answered by
/// the gateway current when it arrived, to its end, while the next requests go to the new one.
final class ServedGateway: HTTPResponder, Sendable {
    /// One configuration as served, with the endpoints file's bytes it was built from.
    private final class Generation: Sendable {
        let gateway: Gateway
        let fileContents: [UInt8]?

        init(gateway: Gateway, fileContents: [UInt8]?) {
            self.gateway = gateway
            self.fileContents = fileContents
        }
    }

    /// A reference, so that a request takes its gateway with one retain under the lock.
    private let current: Mutex<Generation>
    /// Where a reload reads the configuration.
    private let source: ConfigurationSource
    private let logOutput: LogOutput?
    /// Held for the whole of a reload, so that two never interleave.
    private let reloading = Mutex<Void>(())

    /// Serves `gateway`, built from `reading` of `source`.
    init(_ gateway: Gateway, reading: ConfigurationSource.Reading, source: ConfigurationSource, logOutput: LogOutput?) {
        current = Mutex(Generation(gateway: gateway, fileContents: reading.fileContents))
        self.source = source
        self.logOutput = logOutput
    }

    /// The gateway serving new requests now.
    var gateway: Gateway { current.withLock { $0 }.gateway }

    func streamsBody(of head: RequestHead) -> Bool {
        gateway.responder.streamsBody(of: head)
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let generation = current.withLock { $0 }
        return await generation.gateway.responder.respond(to: request)
    }

    /// Reads the configuration again and serves it from the next request on when it is good and
    /// new; keeps the one serving when it is refused (one error line) or the same (nothing done).
    /// What happened is logged and counted in `/metrics`.
    @discardableResult
    func reload() -> ReloadMetrics.Outcome {
        reloading.withLock { _ in
            let serving = current.withLock { $0 }
            let (events, reloads) = (serving.gateway.events, serving.gateway.reloads)
            let outcome: ReloadMetrics.Outcome
            do throws(GatewayStartupError) {
                outcome = try apply(serving)
            } catch {
                events.log(.error, "reload: refused; the running configuration is kept: \(error.description)")
                outcome = .failed
            }
            reloads.record(outcome)
            return outcome
        }
    }

    /// Reads, checks and swaps in the configuration, logging what changed; throws what refused it.
    private func apply(_ serving: Generation) throws(GatewayStartupError) -> ReloadMetrics.Outcome {
        let events = serving.gateway.events
        let reading = try source.read()
        // Without a file both are nil: the catalog in code and the environment cannot change.
        guard reading.fileContents != serving.fileContents else {
            events.log(.info, "reload: the endpoints file is unchanged; the running configuration is kept")
            return .unchanged
        }
        let gateway = try Gateway(reading: reading, logOutput: logOutput, reloading: serving.gateway)
        let change = CatalogChange(from: serving.gateway.catalog, to: reading.catalog)
        current.withLock { $0 = Generation(gateway: gateway, fileContents: reading.fileContents) }
        events.log(.info, "reload: applied; \(change.summary)")
        return .applied
    }
}
