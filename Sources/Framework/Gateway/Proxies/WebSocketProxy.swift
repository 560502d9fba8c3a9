import HTTP1Client
import HTTP1ClientTransport
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import UpstreamKit

/// Opens WebSockets (RFC 6455) through proxy routes: checks the client's handshake and `Origin`,
/// sends the upgrade upstream with the route's forwarding fields and the upstream's credentials,
/// checks the upstream's `101`, and relays bytes both ways once both sides switched.
///
/// The gateway relays bytes and reads only frame headers, never payloads: whatever the two ends
/// agreed on (`permessage-deflate`, a subprotocol, fragmentation, ping and pong, close codes)
/// passes as it is, and a byte costs one read and one write. Knowing where frames end lets a
/// server that shuts down say so: each side gets a close frame with 1001 (going away) where no
/// frame is half sent to it, and a second to answer it, before the connections close. The route's token, scopes and rate limit were
/// checked before (`RouteAdmission`); each WebSocket holds one place under
/// `WEBSOCKET_MAX_CONNECTIONS` besides its client connection under `MAX_CONNECTIONS`.
struct WebSocketProxy: Sendable {
    /// Opens each upgrade on a connection of its own, never pooled.
    let transport: PooledTransport
    /// Which other sites' pages may open WebSockets; nil when CORS is off (same-origin pages only).
    let crossOrigin: CrossOriginPolicy?
    let metrics: WebSocketMetrics
    let relay: SocketRelay
    let accessLog: AccessLog

    /// The WebSocket side of proxy route `route`: its upstream reached on connections of their own
    /// (through the egress proxy when there is one, over the upstream's TLS for `https`).
    init(for route: ProxyRoute, configuration: GatewayConfiguration, metrics: WebSocketMetrics, accessLog: AccessLog) {
        let upstream = configuration.upstreams.first { $0.name == route.upstream }
        transport = PooledTransport(client: HTTPClient(configuration: HTTPClient.Configuration(proxy: configuration.proxy)), tls: upstream?.tls)
        crossOrigin = configuration.crossOrigin
        self.metrics = metrics
        relay = SocketRelay(idleTimeout: configuration.webSocketIdleTimeout)
        self.accessLog = accessLog
    }

    /// The answer to `request`, which asks for a WebSocket (`WebSocketHandshake.isRequested`): a
    /// `101` whose takeover relays, or the refusal, or the upstream's own answer when it did not switch.
    ///
    /// - Parameters:
    ///   - trustedProxies: the proxies in front whose forwarding field is extended rather than replaced.
    ///   - withheld: the upstream answer's fields not passed on besides hop-by-hop ones.
    func open(
        _ request: HTTPRequest, to target: EncodedTarget, through client: UpstreamClient, route: ProxyRoute, isSecure: Bool,
        trusting trustedProxies: TrustedProxies, withholding withheld: [String]
    ) async -> HTTPResponse {
        let key: String
        do {
            key = try WebSocketHandshake.key(of: request)
        } catch {
            return error.response(instance: request.path)
        }
        guard WebSocketOrigins.allows(origin: request.headers["Origin"], host: request.headers["Host"], policy: crossOrigin) else {
            return .problem(.forbidden, detail: "Pages of this origin may not open WebSockets here.", instance: request.path)
        }
        guard let place = metrics.reservePlace() else {
            return .problem(
                .serviceUnavailable, detail: "Too many WebSockets are open; try again later.", instance: request.path, headers: ["Retry-After": "1"])
        }
        var upgrade = Request<Response>(
            .get, .encoded(target), headers: ProxyMessages.upstreamHeaders(for: request, isSecure: isSecure, trusting: trustedProxies),
            requiresAuthentication: route.upstreamCredentials == .sent
        ) { response throws(UpstreamError) in response }
        upgrade.storesCookies = false
        upgrade.followsRedirects = false
        var upstreamConnection: SwitchedConnection?
        let answer: Response
        do {
            answer = try await client.upgrade(upgrade) { prepared throws(UpstreamError) in
                let (answer, connection) = try await transport.upgrade(prepared, to: "websocket")
                upstreamConnection = connection
                return answer
            }
        } catch {
            return error.problem.response(instance: request.path)
        }
        let passedOn = ProxyMessages.clientResponse(for: answer, answeringHEAD: false, withholding: withheld)
        guard let upstreamConnection else { return passedOn }
        guard WebSocketHandshake.accepts(answer.headers, key: key) else {
            upstreamConnection.socket.close()
            return .problem(
                .badGateway, detail: "upstream \(route.upstream) switched protocols without completing the WebSocket handshake",
                instance: request.path)
        }
        var headers = passedOn.headers
        headers.add("Upgrade", "websocket")
        let log = Completion(
            accessLog: accessLog, path: request.path, route: route.metricsRoute, upstream: route.upstream, scope: client.scope)
        let (relay, metrics) = (relay, metrics)
        return .switchingProtocols(headers: headers, then: ConnectionTakeover { clientConnection in
            let started = ContinuousClock.now
            let outcome = await relay.run(between: clientConnection, and: upstreamConnection, farewell: .webSocketClose(code: 1001)) {
                count, toUpstream in
                metrics.moved(count, toUpstream: toUpstream)
            }
            log.record(duration: .now - started, outcome: outcome)
            // The place is given back here, once the relay is over (or when an unwritten 101 drops this closure).
            withExtendedLifetime(place) {}
        })
    }

    /// What the line logged when a WebSocket ends needs from its request.
    private struct Completion: Sendable {
        let accessLog: AccessLog
        let path: String
        let route: String
        let upstream: String
        let scope: RequestScope

        func record(duration: Duration, outcome: SocketRelay.Outcome) {
            accessLog.recordWebSocket(
                path: path, route: route, upstream: upstream, requestID: scope.requestID, trace: scope.trace, duration: duration, outcome: outcome)
        }
    }
}
