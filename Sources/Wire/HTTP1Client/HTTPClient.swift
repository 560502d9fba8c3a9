import HTTP1
public import HTTPBasics
import NetworkRuntime
import Synchronization

/// A pooled HTTP/1.1 client for `http://` and, with a `TLSContext` in the request, `https://`
/// origins, on the package's own sockets and event loops.
///
/// Connections are kept alive per origin (host, port and TLS context) and event loop, up to a maximum;
/// further requests wait for one in arrival order. A connection goes back to the pool only after
/// a complete response that both sides keep alive; any error, timeout or cancellation closes it. Each
/// request has one deadline for everything (waiting for a connection, connecting, writing, the
/// whole response), enforced by the event loop's timers on the socket waits and, for requests
/// queued behind busy connections, by one timer task per client that runs only while some wait.
/// Host names are resolved off the event loops (docs/NETWORK.md); `Configuration.proxy` sends
/// requests through egress proxies.
///
/// ```swift
/// let client = HTTPClient()
/// let response = try await client.send(
///     HTTPClientRequest(host: "127.0.0.1", port: 8080, target: "/api/people/1/"),
///     timeout: .seconds(2), maximumResponseBytes: 1 << 20)
/// ```
public final class HTTPClient: Sendable {
    public let configuration: Configuration

    private typealias Pool = ConnectionPool<ClientConnection, CheckedContinuation<ConnectionLease, Never>>

    /// Where pooled connections lead, and the loop that watches them.
    private struct OriginKey: Hashable {
        var host: String
        var port: Int
        /// nil for plain HTTP.
        var tls: TLSContext?
        var loop: ObjectIdentifier
    }

    /// One origin's pool, a reference so that a request looks its origin up once and then
    /// reaches the pool directly: no second hash of the host, no dictionary write-back.
    ///
    /// `@unchecked Sendable`: its `var` fields are read and written only while holding the
    /// client's `state` lock, which orders every access; the `let` fields never change.
    private final class Origin: @unchecked Sendable {
        let key: OriginKey
        /// The `Host` field value, built once per origin rather than once per request.
        let hostHeader: String
        let route: EgressPath
        /// For an origin behind a forwarding proxy: what every request head needs, built once.
        let forwarding: Forwarding?
        // Unchecked exclusivity: every access happens under the client's lock and none nests in
        // another, so the run-time check of each would only cost time.
        @exclusivity(unchecked)
        var pool: Pool

        init(key: OriginKey, pool: Pool, route: EgressPath) {
            self.key = key
            self.pool = pool
            self.route = route
            hostHeader = HTTPClient.hostHeader(host: key.host, port: key.port, isSecure: key.tls != nil)
            if case .forward(let proxy) = route {
                forwarding = Forwarding(targetPrefix: "http://" + hostHeader, authorization: proxy.authorization)
            } else {
                forwarding = nil
            }
        }
    }

    /// A forwarding proxy takes absolute-form targets (`GET http://host/path`) and its own credentials.
    private struct Forwarding {
        let targetPrefix: String
        let authorization: String?
    }

    /// Every pool, behind one lock held for a few field updates per checkout and per return.
    private struct State {
        var origins: [OriginKey: Origin] = [:]
        var isShutDown = false
        /// When the task that fails queued requests at their deadlines wakes next; nil when no
        /// request waits and no such task runs.
        var waiterTimerDeadline: ContinuousClock.Instant?
        /// Identifies the current timer task: a request queued with an earlier deadline than the
        /// timer's starts a new one, and the superseded task ends when it wakes.
        var waiterTimerGeneration = 0

        /// Visits every pool in place.
        func forEachPool(_ body: (inout Pool) -> Void) {
            for origin in origins.values { body(&origin.pool) }
        }

        /// The origin of `key`, created with an empty pool on first use; nil once the client is
        /// shut down, so a late request adds no entry for a pool that will never be used.
        mutating func origin(for key: OriginKey, limits: Pool.Limits, proxy: ProxySettings?) -> Origin? {
            guard !isShutDown else { return nil }
            if let origin = origins[key] { return origin }
            let route = proxy?.route(toHost: key.host, port: key.port, isSecure: key.tls != nil) ?? .direct
            let origin = Origin(key: key, pool: Pool(limits: limits), route: route)
            origins[key] = origin
            return origin
        }
    }

    private let state = Mutex(State())
    private let connectionsOpened = Atomic<Int>(0)
    private let connectionsReused = Atomic<Int>(0)
    private let waiterIDs = Atomic<Int>(0)
    let dialer: Dialer

    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, resolver: NameResolver())
    }

    /// A client resolving names with `resolver`, for tests.
    init(configuration: Configuration, resolver: NameResolver) {
        self.configuration = configuration
        dialer = Dialer(resolver: resolver)
    }

    /// Sends `request` and returns the complete response.
    ///
    /// An idempotent request that fails on a reused connection before any byte of the response
    /// arrived (the server closed the idle connection as it was sent) is retried once on a new
    /// connection; nothing else is retried.
    ///
    /// - Parameters:
    ///   - timeout: the deadline for the whole exchange: waiting for a connection, connecting,
    ///     sending and reading the last byte of the response. A streamed request body
    ///     (`bodyStream`) is the exception: each of its writes waits at most `timeout`, and the
    ///     rest of the exchange has `timeout` from its end.
    ///   - maximumResponseBytes: the largest body read whole (once inflated); a larger one fails
    ///     with `.bodyTooLarge` as soon as it is known to be larger, and the connection is closed.
    ///   - wholeBodyLimit: nil reads every body whole. Otherwise a body longer than this, or of
    ///     unknown length (chunked, an event stream), is not read here: the answer's `bodyStream`
    ///     reads it as its reader asks, with no limit on its size, each read waiting at most
    ///     `timeout` (so a stream lives as long as it moves), and the connection goes back to the
    ///     pool when it has been read to its end.
    public func send(
        _ request: HTTPClientRequest,
        timeout: Duration,
        maximumResponseBytes: Int,
        streamingBodiesOver wholeBodyLimit: Int? = nil
    ) async throws(HTTPClientError) -> HTTPResponse {
        guard !Task.isCancelled else { throw .cancelled }
        guard timeout > .zero else { throw .timedOut }
        let deadline = Self.deadline(after: timeout)
        let loop = configuration.eventLoop ?? EventLoop.current ?? .shared
        guard let origin = origin(of: request, on: loop) else { throw .shutDown }
        // Once: it looks for a `Range` field.
        let asksForCompression = request.asksForCompression
        let head = try Self.head(of: request, to: origin, asksForCompression: asksForCompression)
        var limits = configuration.limits
        limits.maximumBodyBytes = max(maximumResponseBytes, 0)
        let streaming = wholeBodyLimit.map { streamingRelease(wholeBodyLimit: $0, idleTimeout: timeout, origin: origin) }
        // Usually a connection or a slot is at hand: taking it synchronously costs no async frame.
        var lease: ConnectionLease
        if let available = try availableLease(origin, fresh: false) {
            lease = available
        } else {
            lease = try await checkout(origin, fresh: false, deadline: deadline)
        }
        var mayRetry = request.method.isIdempotent && request.bodyStream == nil
        while true {
            let connection: ClientConnection
            let isReused: Bool
            switch lease {
            case .reuse(let idle):
                connection = idle
                isReused = true
                connectionsReused.add(1, ordering: .relaxed)
            case .connect:
                connection = try await connect(origin, on: loop, deadline: deadline)
                isReused = false
            case .failed(let error):
                throw error
            }
            do {
                let response = try await connection.exchange(
                    head: head, body: request.body, bodyStream: request.bodyStream, method: request.method,
                    acceptsCompression: asksForCompression, limits: limits, streaming: streaming, timeout: timeout, deadline: deadline)
                // A streamed body holds its connection until it has been read.
                if response.bodyStream == nil { release(connection, to: origin) }
                return response
            } catch {
                release(connection, to: origin)
                guard mayRetry, isReused, error == .connectionClosed, !connection.hasReceivedResponseBytes else { throw error }
                mayRetry = false
                lease = try await checkout(origin, fresh: true, deadline: deadline)
            }
        }
    }

    /// Connection counts so far, and the requests waiting for a connection now.
    public var statistics: HTTPClientStatistics {
        let (open, waiting) = state.withLock { state in
            state.origins.values.reduce((0, 0)) { ($0.0 + $1.pool.openCount, $0.1 + $1.pool.waiterCount) }
        }
        return HTTPClientStatistics(
            connectionsOpened: connectionsOpened.load(ordering: .relaxed),
            connectionsReused: connectionsReused.load(ordering: .relaxed),
            openConnections: open, waitingRequests: waiting)
    }

    /// Closes the idle connections and fails the waiting requests; requests in flight finish
    /// and then close their connections. Later calls to `send` fail with `.shutDown`.
    public func shutdown() {
        let (connections, waiters) = state.withLock { state in
            state.isShutDown = true
            var connections: [ClientConnection] = []
            var waiters: [CheckedContinuation<ConnectionLease, Never>] = []
            state.forEachPool { pool in
                let closing = pool.shutDown()
                connections += closing.idle
                waiters += closing.waiters
            }
            return (connections, waiters)
        }
        for connection in connections { connection.close() }
        for waiter in waiters { waiter.resume(returning: .failed(.shutDown)) }
    }

    // MARK: Pool

    /// The pool of `request`'s origin on `loop`; nil once the client is shut down.
    @inline(never)
    private func origin(of request: HTTPClientRequest, on loop: EventLoop) -> Origin? {
        let key = OriginKey(host: request.host, port: request.port, tls: request.tls, loop: ObjectIdentifier(loop))
        return state.withLock { $0.origin(for: key, limits: poolLimits, proxy: configuration.proxy) }
    }

    /// An idle connection or a slot for a new one, waiting in line when every slot is taken.
    private func checkout(_ origin: Origin, fresh: Bool, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> ConnectionLease {
        while true {
            if let lease = try availableLease(origin, fresh: fresh) { return lease }
            let lease = try await waitForConnection(origin, fresh: fresh, deadline: deadline)
            guard case .reuse(let connection) = lease, connection.isPeerClosed else { return lease }
            connection.close()
            freeSlot(of: origin)
        }
    }

    /// An idle connection that the server has not closed, or a slot for a new one; nil when
    /// every slot is taken.
    // Never inlined (nor are `head(of:to:asksForCompression:)` and `release(_:to:)`): their temporaries
    // would otherwise enlarge the async frame of `send`, which every request in flight holds.
    @inline(never)
    private func availableLease(_ origin: Origin, fresh: Bool) throws(HTTPClientError) -> ConnectionLease? {
        while true {
            let now = ContinuousClock.now
            let (checkout, expired) = state.withLock { state -> (Pool.Checkout, [ClientConnection]) in
                guard !state.isShutDown else { return (.shutDown, []) }
                return origin.pool.checkout(now: now, fresh: fresh)
            }
            for connection in expired { connection.close() }
            switch checkout {
            case .reuse(let connection):
                guard connection.isPeerClosed else { return .reuse(connection) }
                connection.close()
                freeSlot(of: origin)
            case .connect: return .connect
            case .mustWait: return nil
            case .shutDown: throw .shutDown
            }
        }
    }

    private func waitForConnection(_ origin: Origin, fresh: Bool, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> ConnectionLease {
        let id = waiterIDs.add(1, ordering: .relaxed).newValue
        let lease = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ConnectionLease, Never>) in
                let now = ContinuousClock.now
                // Checking again under the lock closes the gap since the first checkout: a
                // connection freed in between would otherwise find no waiter and sit idle.
                let (immediate, expired, newTimer) = state.withLock { state -> (ConnectionLease?, [ClientConnection], Int?) in
                    guard !Task.isCancelled else { return (.failed(.cancelled), [], nil) }
                    guard !state.isShutDown else { return (.failed(.shutDown), [], nil) }
                    let (checkout, expired) = origin.pool.checkout(now: now, fresh: fresh)
                    switch checkout {
                    case .reuse(let connection): return (.reuse(connection), expired, nil)
                    case .connect: return (.connect, expired, nil)
                    case .shutDown: return (.failed(.shutDown), expired, nil)
                    case .mustWait:
                        guard origin.pool.enqueue(continuation, id: id, deadline: deadline) else {
                            return (.failed(.tooManyWaiters), expired, nil)
                        }
                        if let wakes = state.waiterTimerDeadline, wakes <= deadline { return (nil, expired, nil) }
                        state.waiterTimerDeadline = deadline
                        state.waiterTimerGeneration += 1
                        return (nil, expired, state.waiterTimerGeneration)
                    }
                }
                for connection in expired { connection.close() }
                if let immediate { continuation.resume(returning: immediate) }
                if let newTimer { Task { await self.expireWaiters(generation: newTimer, firstWake: deadline) } }
            }
        } onCancel: {
            let waiter = state.withLock { _ in origin.pool.removeWaiter(id: id) }
            waiter?.resume(returning: .failed(.cancelled))
        }
        if case .failed(let error) = lease { throw error }
        let lateError: HTTPClientError? = if Task.isCancelled { .cancelled } else if ContinuousClock.now >= deadline { .timedOut } else { nil }
        guard let lateError else { return lease }
        // Too late to use what arrived: give it back untouched so it serves someone else.
        if case .reuse(let connection) = lease {
            release(connection, to: origin)
        } else {
            freeSlot(of: origin)
        }
        throw lateError
    }

    /// Fails queued requests whose deadline passes before a connection frees up: one task per
    /// client that sleeps until the soonest deadline, and only while requests wait, so the
    /// common path (a connection at hand) pays for no timer at all.
    private func expireWaiters(generation: Int, firstWake: ContinuousClock.Instant) async {
        var wake = firstWake
        while true {
            try? await Task.sleep(until: wake, clock: .continuous)
            let now = ContinuousClock.now
            let (expired, next) = state.withLock { state -> ([CheckedContinuation<ConnectionLease, Never>], ContinuousClock.Instant?) in
                guard state.waiterTimerGeneration == generation else { return ([], nil) }
                var expired: [CheckedContinuation<ConnectionLease, Never>] = []
                var next: ContinuousClock.Instant?
                state.forEachPool { pool in
                    expired += pool.removeWaiters(expiredBy: now)
                    if let deadline = pool.earliestWaiterDeadline {
                        next = min(next ?? deadline, deadline)
                    }
                }
                state.waiterTimerDeadline = next
                return (expired, next)
            }
            for waiter in expired { waiter.resume(returning: .failed(.timedOut)) }
            guard let next else { return }
            wake = next
        }
    }

    private func connect(_ origin: Origin, on loop: EventLoop, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> ClientConnection {
        do throws(HTTPClientError) {
            let connectDeadline = min(deadline, Self.deadline(after: configuration.connectTimeout))
            let socket = try await dialer.openSocket(
                to: origin.key.host, port: origin.key.port, route: origin.route, on: loop, deadline: connectDeadline)
            if let tls = origin.key.tls {
                // Through a tunnel too, SNI and verification name the origin, not the proxy. A
                // failed handshake has closed the socket.
                do {
                    try await socket.startTLS(client: tls, host: origin.key.host, port: origin.key.port, deadline: connectDeadline)
                } catch {
                    throw ClientConnection.clientError(error)
                }
            }
            connectionsOpened.add(1, ordering: .relaxed)
            return ClientConnection(socket: socket)
        } catch {
            freeSlot(of: origin)
            throw error
        }
    }

    /// Returns a lent connection: parked, handed to the next waiter, or closed when it is not
    /// reusable.
    @inline(never)
    private func release(_ connection: ClientConnection, to origin: Origin) {
        let now = ContinuousClock.now
        let release = state.withLock { _ in
            origin.pool.release(connection, reusable: connection.isReusable, now: now)
        }
        switch release {
        case .parked:
            break
        case .handOver(let connection, let waiter):
            waiter.resume(returning: .reuse(connection))
        case .close(let connection):
            connection.close()
        case .closeAndConnect(let connection, let waiter):
            connection.close()
            waiter.resume(returning: .connect)
        }
    }

    /// How a streamed answer's connection comes back to `origin`'s pool. Never inlined: only
    /// streaming calls make one, and its closure stays out of `send`'s frame.
    @inline(never)
    private func streamingRelease(wholeBodyLimit: Int, idleTimeout: Duration, origin: Origin) -> StreamingRelease {
        StreamingRelease(wholeBodyLimit: max(wholeBodyLimit, 0), idleTimeout: idleTimeout) { [self] connection in
            release(connection, to: origin)
        }
    }

    /// Gives back the slot of a connection that failed to open or was found closed.
    private func freeSlot(of origin: Origin) {
        let freed = state.withLock { _ in origin.pool.freeSlot() }
        if case .connect(let waiter) = freed {
            waiter.resume(returning: .connect)
        }
    }

    /// `now + timeout`, with absurdly long timeouts cut to ten years so the sum cannot overflow.
    static func deadline(after timeout: Duration) -> ContinuousClock.Instant {
        ContinuousClock.now.advanced(by: min(timeout, .seconds(315_360_000)))
    }

    private var poolLimits: Pool.Limits {
        Pool.Limits(
            maximumConnections: configuration.maximumConnectionsPerOrigin,
            maximumWaiters: configuration.maximumWaitersPerOrigin,
            idleTimeout: configuration.idleTimeout)
    }

    /// The `Host` value for an origin: IPv6 literals in brackets, the port left out when it is the
    /// scheme's default (80, or 443 over TLS).
    static func hostHeader(host: String, port: Int, isSecure: Bool = false) -> String {
        // Byte tests, not `Character` ones: `String.contains(":")` walks grapheme clusters.
        let isBareIPv6 = host.utf8.contains(ASCII.colon) && host.utf8.first != UInt8(ascii: "[")
        let bracketed = isBareIPv6 ? "[" + host + "]" : host
        return port == (isSecure ? 443 : 80) ? bracketed : bracketed + ":" + String(port)
    }

    @inline(never)
    private static func head(of request: HTTPClientRequest, to origin: Origin, asksForCompression: Bool) throws(HTTPClientError) -> [UInt8] {
        guard let forwarding = origin.forwarding else {
            return try head(
                of: request, target: request.target, host: origin.hostHeader, headers: request.headers, asksForCompression: asksForCompression)
        }
        var headers = request.headers
        if let authorization = forwarding.authorization { headers.set("Proxy-Authorization", authorization) }
        return try head(
            of: request, target: forwarding.targetPrefix + request.target, host: origin.hostHeader, headers: headers,
            asksForCompression: asksForCompression)
    }

    private static func head(
        of request: HTTPClientRequest, target: String, host: String, headers: HTTPHeaders, asksForCompression: Bool
    ) throws(HTTPClientError) -> [UInt8] {
        let sendsLength = !request.body.isEmpty || request.method == .post || request.method == .put || request.method == .patch
        let contentLength = request.bodyStream.map { $0.length } ?? (sendsLength ? request.body.count : nil)
        var head: [UInt8] = []
        do {
            try RequestHeadWriter.write(
                method: request.method, target: target, host: host, headers: headers,
                contentLength: contentLength, acceptsCompression: asksForCompression, into: &head)
        } catch {
            throw .invalidRequest(reason: Self.reason(error))
        }
        if let stream = request.bodyStream, stream.length == nil {
            // The writer sends bodies with a length; a stream of unknown length goes chunked,
            // its field in place of the head's last line end.
            head.removeLast(2)
            head.append(literal: "Transfer-Encoding: chunked\r\n\r\n")
        }
        return head
    }

    static func reason(_ error: RequestHeadError) -> String {
        switch error {
        case .invalidMethod: "invalid method"
        case .invalidTarget: "invalid characters in the target"
        case .invalidHost: "invalid characters in the host"
        case .invalidFieldName: "invalid header field name"
        case .invalidFieldValue(let name): "invalid characters in the value of header field \(name)"
        }
    }
}
