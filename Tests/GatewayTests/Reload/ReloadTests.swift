import Foundation
import GatewayTesting
import HTTP1Server
import Testing

@testable import Gateway

/// SIGHUP's reload through real sockets, triggered as the signal triggers it (`requestReload()`
/// writes the byte the signal handler writes): a good file serves its new routes at once and
/// keeps what an unchanged upstream holds; a broken one keeps everything and says why in one line.
@Suite("Reload")
struct ReloadTests {
    /// What a test of reloads works with: the gateway, the handle that reloads it, its log, and
    /// the path of the endpoints file it serves.
    struct Fixture {
        let server: GatewayServer
        let signals: ShutdownSignalHandler
        /// The upstream `live`.
        let stub: StubUpstream
        let log: LogCapture
        let path: String

        var port: Int { server.port }

        /// Replaces the endpoints file with `text`.
        func rewrite(_ text: String) throws {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        /// Asks for a reload and waits for its log line (the reload runs on the signal thread);
        /// returns every reload line so far, `count` of them once this one is written.
        func reload(count: Int) async -> [String] {
            signals.requestReload()
            let isReload = { (line: String) in line.contains(#""message":"reload: "#) }
            return await log.lines { $0.count(where: isReload) >= count }.filter(isReload)
        }

        func metrics() async throws -> String {
            try await RawHTTP.exchange("GET /metrics HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", port: port)
        }
    }

    /// Runs `body` with a gateway serving the endpoints file `text` alone, its upstream `live` a
    /// stub that answers 200 to everything it is not told otherwise.
    static func withReloadableGateway(file text: String, _ body: (Fixture) async throws -> Void) async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer(under: "/", status: .ok, body: "{}")
        let log = try LogCapture()
        defer { log.close() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = LogOutput(descriptor: log.descriptor, interval: .milliseconds(10))
        defer { output.close() }
        let environment = [
            "HOST": "127.0.0.1", "PORT": "0", "SHUTDOWN_DELAY_MS": "0", "GATEWAY_ENDPOINTS_FILE": path, "UPSTREAM_LIVE_URL": stub.baseURL,
        ]
        let server = try GatewayServer(catalog: GatewayCatalog(upstreams: [], endpoints: []), environment: environment, logOutput: output)
        let signals = try server.handleSignals([], reloadSignals: [])
        let running = Task { await server.server.run() }
        defer { signals.cancel() }
        do {
            try await body(Fixture(server: server, signals: signals, stub: stub, log: log, path: path))
        } catch {
            signals.requestShutdown()
            await running.value
            throw error
        }
        signals.requestShutdown()
        await running.value
    }

    /// A file of one upstream, `live`, and a proxy route to it at each of `prefixes`, limited to
    /// one request an hour per caller.
    static func file(proxies prefixes: [String]) -> String {
        let proxies = prefixes.map { #"{"path":"\#($0)","upstream":"live","authentication":"none","rate_limit":"1/h"}"# }
        return #"{"upstreams":{"live":{"url":"http://127.0.0.1:1"}},"proxies":[\#(proxies.joined(separator: ","))]}"#
    }

    static func get(_ target: String, port: Int) async throws -> Int? {
        RawHTTP.status(of: try await RawHTTP.exchange("GET \(target) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", port: port))
    }

    @Test("a good file serves its new route at once; the unchanged upstream, its connections, the cache and a caller's limit carry over")
    func goodFile() async throws {
        try await Self.withReloadableGateway(file: Self.file(proxies: ["/api"])) { gateway in
            #expect(try await Self.get("/api/a", port: gateway.port) == 200)
            #expect(try await Self.get("/more/a", port: gateway.port) == 404)
            let (upstream, cache) = (try #require(gateway.server.gateway.upstreams["live"]), gateway.server.gateway.cache)

            try gateway.rewrite(Self.file(proxies: ["/api", "/more"]))
            let lines = await gateway.reload(count: 1)
            #expect(lines.count == 1)
            #expect(lines.first?.contains("reload: applied; routes added: proxy /more; upstreams kept: live") == true)
            #expect(try await Self.get("/more/a", port: gateway.port) == 200)
            #expect(gateway.server.gateway.upstreams["live"] === upstream)
            #expect(gateway.server.gateway.cache === cache)
            // The caller used its one request an hour on /api before the reload.
            #expect(try await Self.get("/api/b", port: gateway.port) == 429)

            // The same file again changes nothing.
            let again = await gateway.reload(count: 2)
            #expect(again.last?.contains("reload: the endpoints file is unchanged") == true)
            let metrics = try await gateway.metrics()
            #expect(metrics.contains(#"gateway_config_reloads_total{outcome="applied"} 1"#))
            #expect(metrics.contains(#"gateway_config_reloads_total{outcome="unchanged"} 1"#))
            #expect(metrics.contains("gateway_config_last_reload_successful 1"))
        }
    }

    @Test("a broken file keeps the routes served and says why in one error line, counted in /metrics")
    func brokenFile() async throws {
        try await Self.withReloadableGateway(file: Self.file(proxies: ["/api"])) { gateway in
            try gateway.rewrite(#"{"proxies":[{"path":"/api","upstream":"lve"}]}"#)
            let lines = await gateway.reload(count: 1)
            #expect(lines.count == 1)
            #expect(lines.first?.contains(#""level":"error""#) == true)
            #expect(lines.first?.contains("reload: refused; the running configuration is kept: configuration error:") == true)
            #expect(lines.first?.contains("lve") == true)
            #expect(try await Self.get("/api/a", port: gateway.port) == 200)
            let metrics = try await gateway.metrics()
            #expect(metrics.contains(#"gateway_config_reloads_total{outcome="failed"} 1"#))
            #expect(metrics.contains("gateway_config_last_reload_successful 0"))
        }
    }

    @Test("a request in flight finishes on the configuration it began with, though the reload removed its route")
    func inFlightRequestFinishesOnItsConfiguration() async throws {
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        try await Self.withReloadableGateway(file: Self.file(proxies: ["/api"])) { gateway in
            gateway.stub.answer(under: "/slow") { _ in
                for await _ in release { break }
                return .json(Array(#"{"slow":true}"#.utf8))
            }
            let port = gateway.port
            let slow = Task { try await Self.get("/api/slow", port: port) }
            let start = ContinuousClock.now
            while gateway.stub.received.isEmpty && ContinuousClock.now - start < .seconds(10) { await Task.yield() }

            try gateway.rewrite(Self.file(proxies: ["/other"]))
            _ = await gateway.reload(count: 1)
            #expect(try await Self.get("/api/a", port: gateway.port) == 404)
            releaser.yield()
            #expect(try await slow.value == 200)
        }
    }
}
