import Glibc
import Synchronization

/// Turns SIGTERM and SIGINT into `HTTPServer.shutdown()`, running a hook first, once (for
/// example to start failing readiness checks). Keep it alive while serving; one per process.
///
/// The signals are caught with `sigaction` before `init` returns, and the handler only writes
/// a byte to a pipe that a dedicated thread reads. A dispatch signal source would need the
/// signal ignored first and arms itself later on its own queue, so a SIGTERM in between was lost.
public final class ShutdownSignalHandler: Sendable {
    private let isActive = Atomic<Bool>(true)

    /// Handles `signals` from now on: the first one runs `beforeShutdown`, then `server.shutdown()`.
    public init(
        server: HTTPServer,
        signals: [Int32] = [SIGTERM, SIGINT],
        beforeShutdown: @escaping @Sendable () -> Void = {}
    ) throws(SocketError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw .failed(call: "pipe", errno: errno) }
        let (readDescriptor, writeDescriptor) = (descriptors[0], descriptors[1])
        _ = fcntl(readDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeDescriptor, F_SETFD, FD_CLOEXEC)
        try Self.startReader(on: readDescriptor) { [weak self] in
            guard let self, self.isActive.load(ordering: .acquiring) else { return }
            server.shutdown(runningFirst: beforeShutdown)
        }
        signalWriteDescriptor = writeDescriptor
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(signalWriteDescriptor, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Stops acting on the signals (they are still caught, so they no longer end the process).
    public func cancel() {
        isActive.store(false, ordering: .releasing)
    }

    deinit {
        cancel()
    }

    /// Runs `onSignal` on a thread of its own for every byte the handler writes.
    private static func startReader(on descriptor: Int32, _ onSignal: @escaping @Sendable () -> Void) throws(SocketError) {
        try DetachedThread.start {
            var byte: UInt8 = 0
            while true {
                let count = read(descriptor, &byte, 1)
                if count == 1 {
                    onSignal()
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// Where the signal handler writes. A C signal handler cannot capture context, so it reads this
/// global. It is written before any handler that reads it is installed (`sigaction` orders the
/// two) and a single aligned `Int32` store or load cannot tear.
nonisolated(unsafe) private var signalWriteDescriptor: Int32 = -1
