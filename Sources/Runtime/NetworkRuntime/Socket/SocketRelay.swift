import Synchronization

/// Moves bytes both ways between two connections until both directions have ended: a tunnel,
/// such as a WebSocket between a client and its upstream after both switched protocols.
///
/// It does not look at what it moves. Each direction has one buffer and one task that reads a
/// chunk, writes all of it, then reads again: while one side cannot take writes, nothing more is
/// read from the other, and TCP's flow control slows the sender (memory stays at one chunk and
/// one read buffer per direction, whatever the traffic). A direction that waits for its next
/// bytes after small reads holds no buffer meanwhile (`StreamingReadRoom`), so an idle tunnel
/// costs little more than its tasks. A side that closes its sending direction
/// (FIN, or TLS `close_notify`) has that passed on as a FIN to the other while the opposite
/// direction goes on (half-close), for at most `halfCloseTimeout` (as HAProxy's `timeout
/// client-fin`: a WebSocket peer closes once it saw the other's close); a side that fails, resets, or keeps its peer's writes waiting
/// for the idle timeout ends both directions at once. Neither direction moving a byte for the idle
/// timeout ends both too: a quiet direction alone does not, as long as the other moves.
///
/// ```swift
/// let outcome = await SocketRelay(idleTimeout: .seconds(300)).run(between: client, and: upstream)
/// print(outcome.bytesForward, outcome.bytesBackward, outcome.ending)
/// ```
public struct SocketRelay: Sendable {
    /// How long both directions may stay without a byte, and a write may make no progress.
    public let idleTimeout: Duration
    /// How long the other direction may go on once one side closed its own, before both close.
    public let halfCloseTimeout: Duration
    /// The most each direction reads at once.
    public let chunkSize: Int

    /// How the relay ended.
    public enum Ending: Sendable, Equatable {
        /// Both sides closed their sending direction, and each close was passed on.
        case closed
        /// No byte moved either way for the idle timeout.
        case idle
        /// A side failed: reset, an error, or writes to it made no progress for the idle timeout.
        case failed(SocketError)
        /// The task running the relay was cancelled (a server shutting down).
        case cancelled
    }

    /// What the relay moved, and why it stopped.
    public struct Outcome: Sendable, Equatable {
        /// Bytes read from the first connection and written to the second, its buffered bytes included.
        public var bytesForward: Int
        /// Bytes read from the second connection and written to the first, its buffered bytes included.
        public var bytesBackward: Int
        public var ending: Ending
    }

    /// The frames a WebSocket relay sends each side when it is cancelled (a server shutting
    /// down): each goes to a side only where the bytes passed on to it so far end at a frame's end
    /// (`WebSocketFrameScanner`), else that side just sees the connection close. Then the relay
    /// waits up to `grace` for each side that got one to answer with its own close frame, or close.
    public struct Farewell: Sendable {
        /// The bytes for the first connection (a WebSocket's client).
        public var toFirst: [UInt8]
        /// The bytes for the second connection (a WebSocket's upstream).
        public var toSecond: [UInt8]
        /// How long the relay waits for the sides' answers before it closes them.
        public var grace: Duration

        public init(toFirst: [UInt8], toSecond: [UInt8], grace: Duration) {
            self.toFirst = toFirst
            self.toSecond = toSecond
            self.grace = grace
        }

        /// A close frame with `code` to both sides of a WebSocket whose first side is the client
        /// (so the second, the upstream, gets it masked).
        public static func webSocketClose(code: UInt16, grace: Duration = .seconds(1)) -> Farewell {
            Farewell(
                toFirst: WebSocketFrameScanner.closeFrame(code: code, masked: false),
                toSecond: WebSocketFrameScanner.closeFrame(code: code, masked: true), grace: grace)
        }
    }

    public init(idleTimeout: Duration, halfCloseTimeout: Duration = .seconds(5), chunkSize: Int = 32 * 1024) {
        self.idleTimeout = idleTimeout
        self.halfCloseTimeout = halfCloseTimeout
        self.chunkSize = max(chunkSize, 1024)
    }

    /// Relays until both directions ended, then closes both sockets. Each connection's buffered
    /// bytes are written to the other first.
    ///
    /// - Parameters:
    ///   - farewell: what to send each side when the relay is cancelled; nil to just close them.
    ///   - moved: called after each write with its byte count and whether it went from the first
    ///     connection to the second, for live counters; keep it cheap.
    public func run(
        between first: SwitchedConnection, and second: SwitchedConnection, farewell: Farewell? = nil,
        moved: (@Sendable (_ count: Int, _ isForward: Bool) -> Void)? = nil
    ) async -> Outcome {
        let activity = Activity(idleTimeout: idleTimeout)
        var outcome = Outcome(bytesForward: 0, bytesBackward: 0, ending: .closed)
        var forward: Flow?
        var backward: Flow?
        await withTaskGroup(of: Step.self) { group in
            group.addTask {
                .forward(await self.pump(
                    from: first.socket, buffered: first.bufferedBytes, to: second.socket, farewell: farewell?.toSecond, activity: activity
                ) { moved?($0, true) })
            }
            group.addTask {
                .backward(await self.pump(
                    from: second.socket, buffered: second.bufferedBytes, to: first.socket, farewell: farewell?.toFirst, activity: activity
                ) { moved?($0, false) })
            }
            var closedDirections = 0
            var isCuttingHalfClose = false
            for await step in group {
                let flow: Flow
                switch step {
                case .forward(let ended):
                    outcome.bytesForward = ended.bytes
                    (flow, forward) = (ended, ended)
                case .backward(let ended):
                    outcome.bytesBackward = ended.bytes
                    (flow, backward) = (ended, ended)
                case .halfCloseTimerFired(let fired):
                    if fired {
                        isCuttingHalfClose = true
                        group.cancelAll()
                    }
                    continue
                }
                if flow.ending == .closed {
                    closedDirections += 1
                    if closedDirections == 1 {
                        let timeout = halfCloseTimeout
                        group.addTask { .halfCloseTimerFired((try? await Task.sleep(for: timeout)) != nil) }
                    } else {
                        group.cancelAll()
                    }
                } else if outcome.ending == .closed, !(isCuttingHalfClose && flow.ending == .cancelled) {
                    // The first direction that did not end cleanly decides, and ends the other.
                    outcome.ending = flow.ending
                    group.cancelAll()
                }
            }
        }
        if let farewell, let forward, let backward, forward.saidFarewell || backward.saidFarewell {
            await awaitCloses(
                of: [(first.socket, forward.scanner, backward.saidFarewell), (second.socket, backward.scanner, forward.saidFarewell)],
                within: farewell.grace)
        }
        first.socket.close()
        second.socket.close()
        return outcome
    }

    /// Reads and drops what the sides that were sent a farewell still send, until each answered
    /// with a close frame or closed, for at most `grace`. In a task of its own: the relay's was
    /// cancelled, and its waits would end at once.
    private func awaitCloses(of sides: [(AsyncSocket, WebSocketFrameScanner, Bool)], within grace: Duration) async {
        let deadline = ContinuousClock.now + grace
        let waiting = sides.filter(\.2)
        guard let loop = waiting.first?.0.loop else { return }
        await Task(executorPreference: loop) {
            await withTaskGroup(of: Void.self) { group in
                for (socket, scanner, _) in waiting {
                    group.addTask {
                        var scanner = scanner
                        var buffer = ReadBuffer(capacity: 4096)
                        while !scanner.hasSeenClose {
                            guard let count = try? await socket.read(into: &buffer, deadline: deadline), count > 0 else { return }
                            buffer.withUnsafeReadableBytes { scanner.scan($0) }
                            buffer.consume(buffer.readableCount)
                        }
                    }
                }
            }
        }.value
    }

    /// What ended in the relay's task group.
    private enum Step {
        case forward(Flow)
        case backward(Flow)
        /// The time one side's close leaves the other ran out (true), or the timer was cancelled.
        case halfCloseTimerFired(Bool)
    }

    /// What one direction moved and how it ended; with a farewell, where its frames stand and
    /// whether the farewell went to its destination.
    private struct Flow {
        var bytes: Int
        var ending: Ending
        var scanner = WebSocketFrameScanner()
        /// A write to the destination failed part way, so its frames' position is unknown.
        var isCutInsideChunk = false
        var saidFarewell = false
    }

    /// Copies `source` to `destination` (after `buffered`) until `source` closes, passing the close
    /// on. With a `farewell`, it follows the frames it passed on, and sends `farewell` when it is
    /// cancelled at a frame's end.
    private func pump(
        from source: AsyncSocket, buffered: [UInt8], to destination: AsyncSocket, farewell: [UInt8]?, activity: Activity,
        moved: (Int) -> Void
    ) async -> Flow {
        var flow = await pump(from: source, buffered: buffered, to: destination, scanning: farewell != nil, activity: activity, moved: moved)
        if let farewell, flow.ending == .cancelled, !flow.isCutInsideChunk, flow.scanner.isAtBoundary {
            // The write goes out at once on a socket whose buffer has room, cancelled task or not.
            flow.saidFarewell = (try? await destination.write(farewell, deadline: .now + idleTimeout)) != nil
        }
        return flow
    }

    private func pump(
        from source: AsyncSocket, buffered: [UInt8], to destination: AsyncSocket, scanning: Bool, activity: Activity, moved: (Int) -> Void
    ) async -> Flow {
        var scanner = WebSocketFrameScanner()
        var total = 0
        var chunk = buffered
        var buffer = ReadBuffer(capacity: 4096)
        var room = StreamingReadRoom(largest: chunkSize)
        while true {
            if !chunk.isEmpty {
                do {
                    try await destination.write(chunk, deadline: .now + idleTimeout)
                } catch {
                    // Cut inside a chunk: where its frames stand is not known, so no farewell.
                    return Flow(bytes: total, ending: Self.ending(error), scanner: scanner, isCutInsideChunk: true)
                }
                if scanning { chunk.withUnsafeBytes { scanner.scan($0) } }
                total += chunk.count
                moved(chunk.count)
                activity.touch()
                chunk = []
            }
            let count: Int
            room.prepare(&buffer)
            do {
                count = try await source.read(into: &buffer, deadline: activity.deadline)
            } catch .timedOut {
                // The other direction may have moved meanwhile, which keeps this one open.
                if activity.isIdle(at: .now) { return Flow(bytes: total, ending: .idle, scanner: scanner) }
                continue
            } catch {
                return Flow(bytes: total, ending: Self.ending(error), scanner: scanner)
            }
            guard count > 0 else {
                await destination.shutdownOutput(deadline: .now + idleTimeout)
                return Flow(bytes: total, ending: .closed, scanner: scanner)
            }
            activity.touch()
            room.record(read: count)
            chunk = buffer.withUnsafeReadableBytes { Array($0) }
            buffer.consume(buffer.readableCount)
        }
    }

    private static func ending(_ error: SocketError) -> Ending {
        error == .cancelled ? .cancelled : .failed(error)
    }

    /// When either direction last moved a byte, shared by both: the idle timeout counts from it.
    final class Activity: Sendable {
        private let start = ContinuousClock.now
        private let idleTimeout: Duration
        /// Nanoseconds from `start` to the last activity.
        private let last = Atomic<Int64>(0)

        init(idleTimeout: Duration) {
            self.idleTimeout = idleTimeout
        }

        func touch() {
            last.store(Self.nanoseconds(.now - start), ordering: .relaxed)
        }

        /// When the relay is idle unless a byte moves before.
        var deadline: ContinuousClock.Instant {
            start + .nanoseconds(last.load(ordering: .relaxed)) + idleTimeout
        }

        func isIdle(at now: ContinuousClock.Instant) -> Bool { now >= deadline }

        private static func nanoseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }
    }
}
