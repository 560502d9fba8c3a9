import Dispatch
import Glibc

/// Turns SIGTERM and SIGINT into `HTTPServer.shutdown()`, running a hook first, once (for
/// example to start failing readiness checks). Keep it alive while serving.
public final class ShutdownSignalHandler: Sendable {
    // Dispatch sources may be used from any thread, and the array is never mutated after init.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    /// Handles `signals` from now on: the first one runs `beforeShutdown`, then `server.shutdown()`.
    public init(
        server: HTTPServer,
        signals: [Int32] = [SIGTERM, SIGINT],
        beforeShutdown: @escaping @Sendable () -> Void = {}
    ) {
        sources = signals.map { number in
            // The default action would kill the process; the source receives the signal instead.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { server.shutdown(runningFirst: beforeShutdown) }
            source.resume()
            return source
        }
    }

    /// Stops handling the signals (they stay ignored).
    public func cancel() {
        for source in sources { source.cancel() }
    }

    deinit {
        cancel()
    }
}
