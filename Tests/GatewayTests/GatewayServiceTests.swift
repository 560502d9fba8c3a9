import GatewayTesting
import HTTP1Client
import Testing

@testable import Gateway

/// A gateway run and stopped from code, configured in code: `GatewayService` and `GatewaySettings`.
@Suite("A gateway service configured in code")
struct GatewayServiceTests {
    private static let catalog = GatewayCatalog(upstreams: [.bookshop], endpoints: [.book, .review])

    @Test("settings become the variables of the same meaning, properties over `variables`, the environment over both")
    func settingsAsVariables() {
        var settings = GatewaySettings()
        settings.port = 0
        settings.logLevel = .warning
        settings.requestDeadline = .milliseconds(2500)
        settings.rateLimit = RateLimitPolicy(20, per: .second, burst: 40)
        settings.allowedOrigins = ["https://shop.example", "https://admin.example"]
        settings.upstreams["bookshop"] = .init(url: "https://books.example/api", timeout: .seconds(2), caches: false)
        settings.variables = ["PORT": "9999", "OTEL_SERVICE_NAME": "shop-bff"]
        let environment = settings.environment(overriddenBy: ["LOG_LEVEL": "debug"])
        #expect(environment == [
            "PORT": "0", "LOG_LEVEL": "debug", "REQUEST_DEADLINE_MS": "2500", "RATE_LIMIT": "20/s burst 40",
            "CORS_ALLOWED_ORIGINS": "https://shop.example,https://admin.example", "OTEL_SERVICE_NAME": "shop-bff",
            "UPSTREAM_BOOKSHOP_URL": "https://books.example/api", "UPSTREAM_BOOKSHOP_TIMEOUT_MS": "2000", "UPSTREAM_BOOKSHOP_CACHE": "off",
        ])
        #expect(GatewaySettings().environment(overriddenBy: [:]).isEmpty)
    }

    @Test("a setting out of range is refused with the variable's own error, before anything binds")
    func badSetting() {
        var settings = GatewaySettings()
        settings.port = 70000
        let error = #expect(throws: GatewayStartupError.self) {
            try GatewayService(catalog: Self.catalog, settings: settings, environment: [:])
        }
        #expect(error?.description.contains("PORT") == true)
        #expect(error?.exitStatus == 2)
    }

    @Test("configured in code alone, it serves until stop(), then run() returns")
    func runAndStop() async throws {
        let bookshop = try StubUpstream()
        defer { bookshop.shutdown() }
        bookshop.answer("/books/1", json: #"{"title":"T","author":"A","pages":1}"#)
        bookshop.answer("/books/1/reviews", json: #"[{"stars":3}]"#)
        var settings = GatewaySettings()
        settings.host = "127.0.0.1"
        settings.port = 0
        settings.logLevel = .off
        settings.upstreams["bookshop"] = .init(url: bookshop.baseURL)
        let gateway = try GatewayService(catalog: Self.catalog, settings: settings, environment: ["REQUEST_DEADLINE_MS": "4000"])
        #expect(gateway.gateway.configuration.requestDeadline == .seconds(4))
        let serving = Task { await gateway.run() }
        let client = HTTPClient()
        defer { client.shutdown() }
        let response = try await client.send(
            HTTPClientRequest(method: .get, host: "127.0.0.1", port: gateway.port, target: "/v1/books/1"), timeout: .seconds(10), maximumResponseBytes: 1 << 20)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"title":"T","author":"A","averageStars":3,"degraded":[]}"#)
        gateway.stop()
        await serving.value
        #expect(gateway.gateway.status.isShuttingDown)
    }

    @Test("stopped before it ran, run() returns at once and the port is released")
    func stopFirst() async throws {
        var settings = GatewaySettings()
        settings.host = "127.0.0.1"
        settings.port = 0
        settings.logLevel = .off
        let gateway = try GatewayService(catalog: Self.catalog, settings: settings, environment: [:])
        gateway.stop()
        await gateway.run()
        settings.port = gateway.port
        settings.variables["REUSE_PORT"] = "off"
        let again = try GatewayService(catalog: Self.catalog, settings: settings, environment: [:])
        again.stop()
        await again.run()
    }
}
