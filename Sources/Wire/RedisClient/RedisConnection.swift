import NetworkRuntime
import Synchronization

/// One connection to Redis carrying pipelined commands: each caller's command is queued and
/// written behind the ones before it, and replies, which Redis sends in order, resume the callers
/// in that order.
///
/// The caller that finds nobody writing writes everything queued until the queue is empty; a
/// reader task runs while replies are owed and stops when none are, so an idle connection holds
/// no task. Any failure (a timeout, a closed socket, bytes that are not RESP) closes the connection
/// and fails every command still owed: replies can no longer be matched to commands after one.
final class RedisConnection: Sendable {
    private let socket: AsyncSocket
    private let parser: RESPParser
    private let state = Mutex(State())

    private struct State {
        var outgoing: [UInt8] = []
        /// The deadline of the last queued command, for the writer.
        var outgoingDeadline: ContinuousClock.Instant?
        /// Commands whose replies are owed, oldest first.
        var owed: [Owed] = []
        var owedStart = 0
        var isWriting = false
        var isReading = false
        var failure: RedisError?
    }

    private struct Owed {
        let reply: ReplySlot
        let deadline: ContinuousClock.Instant
    }

    init(socket: AsyncSocket, parser: RESPParser) {
        self.socket = socket
        self.parser = parser
    }

    /// Whether the connection failed or the server hung up; such a connection is replaced.
    var isBroken: Bool {
        state.withLock { $0.failure != nil } || socket.isPeerClosed
    }

    /// Runs `action` once, on the loop's thread, when the server hangs up, even while no command
    /// is owed. Keep it short.
    func whenPeerCloses(_ action: @escaping @Sendable () -> Void) {
        socket.whenPeerCloses(action)
    }

    /// Closes the connection, failing every command still owed.
    func close() {
        fail(with: .connectionClosed)
    }

    /// Sends `commands` back to back and returns their replies in order (an error reply is a
    /// value here), all before `deadline`.
    func send(_ commands: [RedisCommand], deadline: ContinuousClock.Instant) async -> [Result<RESPValue, RedisError>] {
        let replies = commands.map { _ in ReplySlot() }
        let role = state.withLock { state -> Role in
            if let failure = state.failure { return .failed(failure) }
            for (command, reply) in zip(commands, replies) {
                state.outgoing += command.encoded
                state.owed.append(Owed(reply: reply, deadline: deadline))
            }
            state.outgoingDeadline = deadline
            var role = Role.none
            if !state.isReading {
                state.isReading = true
                role = .read
            }
            if !state.isWriting {
                state.isWriting = true
                role = role == .read ? .readAndWrite : .write
            }
            return role
        }
        switch role {
        case .failed(let failure): return commands.map { _ in .failure(failure) }
        case .read, .readAndWrite: Task(executorPreference: socket.loop) { await self.readReplies() }
        case .write, .none: break
        }
        if role == .write || role == .readAndWrite { await writeQueued() }
        var results: [Result<RESPValue, RedisError>] = []
        results.reserveCapacity(replies.count)
        for reply in replies { results.append(await reply.wait()) }
        return results
    }

    private enum Role: Equatable {
        case none, read, write, readAndWrite
        case failed(RedisError)
    }

    /// Writes what is queued until nothing is.
    private func writeQueued() async {
        while true {
            let (bytes, deadline) = state.withLock { state -> ([UInt8], ContinuousClock.Instant?) in
                let taken = (state.outgoing, state.outgoingDeadline)
                state.outgoing = []
                if taken.0.isEmpty || state.failure != nil { state.isWriting = false }
                return taken
            }
            guard let deadline, !bytes.isEmpty else { return }
            do {
                try await socket.write(bytes, deadline: deadline)
            } catch {
                fail(with: Self.redisError(error))
                state.withLock { $0.isWriting = false }
                return
            }
        }
    }

    /// Reads replies and hands them out in order while any are owed.
    private func readReplies() async {
        var buffer = ReadBuffer(capacity: 1024)
        while true {
            let parsed: (value: RESPValue, length: Int)?
            do {
                parsed = buffer.isEmpty ? nil : try buffer.withUnsafeReadableBytes { (bytes) throws(RESPParseError) in try parser.parse(bytes) }
            } catch {
                fail(with: .protocolViolation(reason: error.description))
                return
            }
            if let parsed {
                buffer.consume(parsed.length)
                let owed = state.withLock { state -> Owed? in
                    guard state.owedStart < state.owed.count else { return nil }
                    let first = state.owed[state.owedStart]
                    state.owedStart += 1
                    if state.owedStart == state.owed.count {
                        state.owed.removeAll(keepingCapacity: true)
                        state.owedStart = 0
                    } else if state.owedStart >= 64 && state.owedStart * 2 >= state.owed.count {
                        // Under steady load the queue may never empty: drop the answered half.
                        state.owed.removeFirst(state.owedStart)
                        state.owedStart = 0
                    }
                    return first
                }
                guard let owed else {
                    fail(with: .protocolViolation(reason: "a reply no command asked for"))
                    return
                }
                owed.reply.resume(with: .success(parsed.value))
                continue
            }
            let deadline = state.withLock { state -> ContinuousClock.Instant? in
                guard state.failure == nil, state.owedStart < state.owed.count else {
                    state.isReading = false
                    return nil
                }
                return state.owed[state.owedStart].deadline
            }
            guard let deadline else {
                if !buffer.isEmpty { fail(with: .protocolViolation(reason: "bytes after the last reply")) }
                return
            }
            do {
                guard try await socket.read(into: &buffer, deadline: deadline) > 0 else {
                    fail(with: .connectionClosed)
                    return
                }
            } catch {
                fail(with: Self.redisError(error))
                return
            }
        }
    }

    /// Marks the connection failed, closes its socket and fails every command owed.
    private func fail(with error: RedisError) {
        let owed = state.withLock { state -> ArraySlice<Owed> in
            if state.failure == nil { state.failure = error }
            let owed = state.owed[state.owedStart...]
            state.owed = []
            state.owedStart = 0
            state.isReading = false
            return owed
        }
        socket.close()
        for entry in owed { entry.reply.resume(with: .failure(error)) }
    }

    static func redisError(_ error: SocketError) -> RedisError {
        switch error {
        case .timedOut: .timedOut
        case .closed, .cancelled: .connectionClosed
        default: .connectionFailed(reason: error.description)
        }
    }
}
