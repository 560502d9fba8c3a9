public import NetworkRuntime
import Synchronization

/// A Redis client on the gateway's event loop: one pipelined connection, opened in the
/// background and replaced with a jittered, capped back-off when it fails.
///
/// Commands never wait for a connection: while none is up (Redis down, back-off running, a
/// connection being opened) they fail at once with `RedisError.unavailable`, and callers go on
/// without Redis. Each command waits at most the command timeout. Every change between up and
/// down is reported once to `onTransition`, never per command.
///
/// Reconnecting needs no traffic: a connection the server hangs up on is replaced at once, and
/// while Redis is down a connection is tried again when each back-off ends
/// (`RedisHealth.backgroundAttemptAt`), so `isUp` tells the truth and the first command after
/// Redis returns finds a connection waiting.
public final class RedisClient: Sendable {
    /// Called once per change of Redis's health, with the failure that caused a `.failed`.
    public typealias TransitionHandler = @Sendable (_ transition: RedisHealth.Transition, _ cause: RedisError?) -> Void

    /// How the client connects and waits.
    public let configuration: RedisConfiguration
    private let loop: EventLoop
    private let tls: TLSContext?
    private let resolver = NameResolver()
    private let parser: RESPParser
    private let onTransition: TransitionHandler
    private let state: Mutex<State>
    private let failures = Atomic<Int>(0)

    private struct State {
        var connection: RedisConnection?
        var isConnecting = false
        /// Whether a background attempt waits for the end of the back-off.
        var isAttemptScheduled = false
        /// `connect()` callers waiting for the attempt under way.
        var connectWaiters: [CheckedContinuation<Void, Never>] = []
        var health: RedisHealth
    }

    /// A client for `configuration` whose sockets live on `loop`; it connects on first use or on
    /// `connect()`.
    public init(_ configuration: RedisConfiguration, loop: EventLoop = .shared, onTransition: @escaping TransitionHandler = { _, _ in }) {
        self.configuration = configuration
        self.loop = loop
        self.onTransition = onTransition
        parser = RESPParser(maximumReplyBytes: configuration.maximumReplyBytes)
        // Without a context of the caller's, the system's trust; when it cannot be loaded, every
        // connection fails saying so.
        tls = configuration.url.usesTLS ? configuration.tls ?? (try? TLSContext.client()) : nil
        state = Mutex(State(health: RedisHealth(initialBackoff: configuration.initialBackoff, maximumBackoff: configuration.maximumBackoff)))
    }

    deinit {
        state.withLock { $0.connection }?.close()
    }

    /// Commands and connection attempts that failed for Redis's health (timeouts, closed or
    /// refused connections), not those refused at once while it is known down.
    public var failureCount: Int { failures.load(ordering: .relaxed) }

    /// Whether Redis answered last time it was asked.
    public var isUp: Bool { state.withLock { $0.health.isUp } }

    /// Opens the connection now unless one is up, waiting for the attempt (bounded by the connect
    /// timeout; an attempt already under way is waited for) even during a back-off; returns
    /// whether a connection is up afterwards. For start-up and tests: commands never wait like this.
    @discardableResult
    public func connect() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let step = state.withLock { state -> ConnectStep in
                if let connection = state.connection, !connection.isBroken { return .done }
                state.connectWaiters.append(continuation)
                guard !state.isConnecting else { return .wait }
                state.isConnecting = true
                return .open
            }
            switch step {
            case .done: continuation.resume()
            case .wait: break
            case .open: Task(executorPreference: loop) { await self.openConnection() }
            }
        }
        return state.withLock { state in state.connection.map { !$0.isBroken } ?? false }
    }

    private enum ConnectStep {
        case done, wait, open
    }

    /// Closes the connection; the next command opens another.
    public func close() {
        state.withLock { state -> RedisConnection? in
            defer { state.connection = nil }
            return state.connection
        }?.close()
    }

    /// Sends `command` and returns its reply; an error reply throws `RedisError.server`.
    public func send(_ command: RedisCommand) async throws(RedisError) -> RESPValue {
        guard let connection = usableConnection() else { throw .unavailable }
        let result = await connection.send([command], deadline: .now + configuration.commandTimeout)[0]
        switch result {
        case .success(let value):
            record(nil)
            if case .error(let message) = value { throw .server(message: message) }
            return value
        case .failure(let error):
            record(error)
            throw error
        }
    }

    /// `PING`.
    public func ping() async throws(RedisError) {
        let reply = try await send(RedisCommand("PING"))
        guard reply == .simpleString("PONG") else { throw .protocolViolation(reason: "PING answered \(reply)") }
    }

    /// `GET key`: the value, or nil when the key does not exist.
    public func get(_ key: String) async throws(RedisError) -> [UInt8]? {
        switch try await send(RedisCommand("GET", [Array(key.utf8)])) {
        case .bulkString(let value): return value
        case .null: return nil
        case let reply: throw .protocolViolation(reason: "GET answered \(reply)")
        }
    }

    /// `SET key value PX milliseconds`: stores `value` for `expiry` (at least one millisecond).
    public func set(_ key: String, to value: [UInt8], expiry: Duration) async throws(RedisError) {
        let milliseconds = max(1, expiry.components.seconds * 1000 + expiry.components.attoseconds / 1_000_000_000_000_000)
        let reply = try await send(RedisCommand("SET", [Array(key.utf8), value, Array("PX".utf8), Array(String(milliseconds).utf8)]))
        guard reply == .simpleString("OK") else { throw .protocolViolation(reason: "SET answered \(reply)") }
    }

    /// Runs `script` with `EVALSHA`, and with `EVAL` (which also loads it) when the server answers
    /// `NOSCRIPT`: after a restart, a failover or `SCRIPT FLUSH`.
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [[UInt8]]) async throws(RedisError) -> RESPValue {
        let tail = [Array(String(keys.count).utf8)] + keys.map { Array($0.utf8) } + arguments
        do {
            return try await send(RedisCommand("EVALSHA", [Array(script.sha1.utf8)] + tail))
        } catch .server(let message) where message.hasPrefix("NOSCRIPT") {
            return try await send(RedisCommand("EVAL", [Array(script.source.utf8)] + tail))
        }
    }

    /// The connection to use, or nil while none is up; starts opening one in the background when
    /// none is up and the back-off allows.
    private func usableConnection() -> RedisConnection? {
        let (connection, shouldConnect) = state.withLock { state -> (RedisConnection?, Bool) in
            if let connection = state.connection {
                if !connection.isBroken { return (connection, false) }
                state.connection = nil
            }
            guard !state.isConnecting, state.health.mayConnect(at: .now) else { return (nil, false) }
            state.isConnecting = true
            return (nil, true)
        }
        if shouldConnect { Task(executorPreference: loop) { await self.openConnection() } }
        return connection
    }

    /// Waits in the background for the end of the back-off, then tries a connection unless one
    /// is up or being opened; at most one such wait at a time. Holds the client weakly, so that
    /// a client let go of is not kept alive by its own back-off.
    private func scheduleAttempt() {
        let due = state.withLock { state -> ContinuousClock.Instant? in
            guard !state.isAttemptScheduled, let due = state.health.backgroundAttemptAt else { return nil }
            state.isAttemptScheduled = true
            return due
        }
        guard let due else { return }
        Task(executorPreference: loop) { [weak self] in
            try? await Task.sleep(until: due, clock: .continuous)
            self?.attemptInBackground()
        }
    }

    private func attemptInBackground() {
        let shouldConnect = state.withLock { state -> Bool in
            state.isAttemptScheduled = false
            if let connection = state.connection, !connection.isBroken { return false }
            guard !state.isConnecting else { return false }
            state.isConnecting = true
            return true
        }
        if shouldConnect { Task(executorPreference: loop) { await self.openConnection() } }
    }

    /// Replaces `connection` at once when the server hangs up on it while it is the one in use,
    /// so that an idle client learns of a restart without waiting for a command.
    private func connectionLost(_ connection: RedisConnection) async {
        let shouldConnect = state.withLock { state -> Bool in
            guard state.connection === connection else { return false }
            state.connection = nil
            guard !state.isConnecting else { return false }
            state.isConnecting = true
            return true
        }
        connection.close()
        if shouldConnect { await openConnection() }
    }

    /// Opens, authenticates and selects a connection, keeping it on success; `isConnecting` is set.
    private func openConnection() async {
        let result = await handshake(deadline: .now + configuration.connectTimeout)
        let (previous, waiters) = state.withLock { state -> (RedisConnection?, [CheckedContinuation<Void, Never>]) in
            state.isConnecting = false
            defer { state.connectWaiters = [] }
            guard case .success(let connection) = result else { return (nil, state.connectWaiters) }
            defer { state.connection = connection }
            return (state.connection, state.connectWaiters)
        }
        previous?.close()
        switch result {
        case .success(let connection):
            // The action runs on the loop's thread, which must not wait: the work goes to a task.
            connection.whenPeerCloses { [weak self, weak connection] in
                guard let self, let connection else { return }
                Task(executorPreference: self.loop) { await self.connectionLost(connection) }
            }
            record(nil)
        case .failure(let error):
            record(error, isConnectAttempt: true)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func handshake(deadline: ContinuousClock.Instant) async -> Result<RedisConnection, RedisError> {
        let url = configuration.url
        let socket: AsyncSocket
        do {
            let addresses = try await resolver.addresses(of: url.host, port: url.port, on: loop, deadline: deadline)
            socket = try await AsyncSocket.connect(toAnyOf: addresses, on: loop, deadline: deadline)
            if url.usesTLS {
                guard let tls else {
                    socket.close()
                    return .failure(.connectionFailed(reason: "the system's certificate authorities cannot be loaded for rediss://"))
                }
                try await socket.startTLS(client: tls, host: url.host, port: url.port, deadline: deadline)
            }
        } catch {
            return .failure(error == .closed ? .connectionFailed(reason: "connection refused") : .connectionFailed(reason: error.description))
        }
        let connection = RedisConnection(socket: socket, parser: parser)
        var setup: [RedisCommand] = []
        if let password = url.password {
            setup.append(RedisCommand("AUTH", (url.user.map { [$0] } ?? []) + [password]))
        }
        if url.database != 0 { setup.append(RedisCommand("SELECT", [String(url.database)])) }
        setup.append(RedisCommand("PING"))
        // Pipelined: one round trip for the whole set-up.
        let replies = await connection.send(setup, deadline: deadline)
        for (command, reply) in zip(setup, replies) {
            switch reply {
            case .success(.error(let message)):
                connection.close()
                return .failure(.connectionFailed(reason: "\(command.name) refused: \(message)"))
            case .failure(let error):
                connection.close()
                return .failure(error == .timedOut ? .connectionFailed(reason: "timed out") : error)
            default: continue
            }
        }
        return .success(connection)
    }

    /// Feeds an outcome to the health machine, reporting a change of state.
    ///
    /// - Parameter isConnectAttempt: whether the outcome is a connection attempt's. Each failed
    ///   attempt lengthens the back-off; commands failing together on one connection (all those
    ///   in flight when it times out) mark Redis down once and lengthen nothing.
    private func record(_ error: RedisError?, isConnectAttempt: Bool = false) {
        if let error, !error.isConnectionFailure { return }
        if error != nil { failures.add(1, ordering: .relaxed) }
        let transition = state.withLock { state -> RedisHealth.Transition? in
            guard error != nil else { return state.health.recordSuccess() }
            if let connection = state.connection, connection.isBroken { state.connection = nil }
            guard isConnectAttempt || state.health.isUp else { return nil }
            return state.health.recordFailure(at: .now, jitter: Double.random(in: 0..<1))
        }
        if let transition { onTransition(transition, error) }
        if error != nil { scheduleAttempt() }
    }
}
