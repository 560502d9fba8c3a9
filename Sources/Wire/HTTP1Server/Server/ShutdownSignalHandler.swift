public import Glibc
public import NetworkRuntime
import Synchronization

/// Turns SIGTERM and SIGINT into `HTTPServer.shutdown()`: the first signal runs a hook at once
/// (for example to start failing readiness checks), then the server keeps serving, new
/// connections included, for `delay`, so load balancers see the failing check and stop sending
/// before the listener closes; a second signal ends the delay early. Keep it alive while
/// serving; one per process.
///
/// It also turns the reload signals (SIGHUP, say) into calls of a reload hook, one at a time on
/// its own thread, until the shutdown begins; caught, they no longer end the process.
///
/// The signals are caught with `sigaction` before `init` returns, and the handler only writes
/// a byte to a pipe that a dedicated thread reads. A dispatch signal source would need the
/// signal ignored first and arms itself later on its own queue, so a SIGTERM in between was lost.
public final class ShutdownSignalHandler: Sendable {
    private let isActive = Atomic<Bool>(true)
    private let writeDescriptor: Int32
    /// Whether the signal handlers write to `writeDescriptor`, which must then stay open for good.
    private let catchesSignals: Bool

    /// Handles `signals` from now on: the first one runs `beforeShutdown`, waits `delay` (or
    /// until the next signal), then calls `server.shutdown()`; later ones do nothing more. Each of
    /// `reloadSignals` runs `reload` (on the handler's thread, so never two at once) until then.
    ///
    /// With no `signals`, nothing is caught and only `requestShutdown()` starts the sequence;
    /// with no `reloadSignals`, only `requestReload()` runs `reload`.
    public init(
        server: HTTPServer,
        signals: [Int32] = [SIGTERM, SIGINT],
        delay: Duration = .zero,
        beforeShutdown: @escaping @Sendable () -> Void = {},
        reloadSignals: [Int32] = [],
        reload: @escaping @Sendable () -> Void = {}
    ) throws(SocketError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw .failed(call: "pipe", errno: errno) }
        let (readDescriptor, writeDescriptor) = (descriptors[0], descriptors[1])
        _ = fcntl(readDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeDescriptor, F_SETFD, FD_CLOEXEC)
        self.writeDescriptor = writeDescriptor
        let caught = signals + reloadSignals
        catchesSignals = !caught.isEmpty
        let reloadBytes = Set(reloadSignals.map { UInt8(truncatingIfNeeded: $0) } + [Self.reloadRequest])
        try DetachedThread.start { [weak self] in
            defer { close(readDescriptor) }
            var hasBegun = false
            while let byte = Self.readByte(from: readDescriptor) {
                guard !hasBegun, self?.isActive.load(ordering: .acquiring) == true else { continue }
                if reloadBytes.contains(byte) {
                    reload()
                    continue
                }
                hasBegun = true
                beforeShutdown()
                // Once begun, the shutdown is finished even if the handler is cancelled meanwhile;
                // a reload signal meanwhile neither reloads nor ends the delay.
                let end = ContinuousClock.now + delay
                while let byte = Self.waitForByte(on: readDescriptor, until: end), reloadBytes.contains(byte) {}
                server.shutdown()
            }
        }
        guard catchesSignals else { return }
        signalWriteDescriptor = writeDescriptor
        for number in caught {
            var action = sigaction()
            // The byte is the signal's number, which tells a reload from a shutdown.
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalWriteDescriptor, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Acts as if one of the signals had arrived: the first call starts the shutdown, the next
    /// one ends its delay.
    public func requestShutdown() {
        send(Self.shutdownRequest)
    }

    /// Acts as if one of the reload signals had arrived: runs the reload hook, unless the shutdown
    /// has begun.
    public func requestReload() {
        send(Self.reloadRequest)
    }

    /// The bytes of the two requests; no signal has either number.
    private static let shutdownRequest: UInt8 = 0
    private static let reloadRequest: UInt8 = 255

    private func send(_ request: UInt8) {
        var byte = request
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Stops acting on the signals (they are still caught, so they no longer end the process); a
    /// shutdown already begun still happens.
    public func cancel() {
        isActive.store(false, ordering: .releasing)
    }

    /// Without signals to catch, closing the pipe ends the reading thread (and its hold on the
    /// server), and with it any delay under way.
    deinit {
        cancel()
        if !catchesSignals { close(writeDescriptor) }
    }

    /// Blocks until a byte arrives and consumes it; nil when the pipe failed.
    private static func readByte(from descriptor: Int32) -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count == 1 { return byte }
            guard count < 0 && errno == EINTR else { return nil }
        }
    }

    /// Waits until `deadline` for a byte and consumes it; nil when none came.
    private static func waitForByte(on descriptor: Int32, until deadline: ContinuousClock.Instant) -> UInt8? {
        while true {
            let now = ContinuousClock.now
            guard now < deadline else { return nil }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, EventLoop.milliseconds(from: now, to: deadline))
            if ready > 0 { return readByte(from: descriptor) }
            // A signal interrupts poll (SA_RESTART does not restart it); its byte is read next time round.
            guard ready == 0 || errno == EINTR else { return nil }
        }
    }
}

/// Where the signal handler writes. A C signal handler cannot capture context, so it reads this
/// global. It is written before any handler that reads it is installed (`sigaction` orders the
/// two) and a single aligned `Int32` store or load cannot tear.
nonisolated(unsafe) private var signalWriteDescriptor: Int32 = -1
