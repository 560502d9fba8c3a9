import Foundation
import HTTPBasics
import Testing
import UpstreamKit

@testable import Gateway
@testable import ReferenceScenario

@Suite("Configuration from the environment")
struct ConfigurationTests {
    private let upstreams = GatewayCatalog.reference.upstreams

    private func load(_ environment: [String: String]) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(environment: environment, upstreams: upstreams)
    }

    private func error(for environment: [String: String]) -> ConfigurationError? {
        do {
            _ = try load(environment)
            return nil
        } catch {
            return error
        }
    }

    @Test("defaults are the public APIs on port 8080")
    func defaults() throws {
        let configuration = try load([:])
        #expect(configuration.port == 8080)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.logLevel == .info)
        #expect(configuration.shutdownDelay == .seconds(5))
        #expect(configuration.drainTimeout == .seconds(10))
        #expect(configuration.eventLoopCount == ProcessorBudget.available)
        #expect(configuration.upstreams.map(\.name) == ["deck", "swapi", "menu"])
        #expect(configuration.upstreams[1].baseURL.description == "https://swapi.dev/api")
        #expect(configuration.upstreams[1].bearerToken == nil)
        #expect(configuration.upstreams[1].timeout == .seconds(5))
        #expect(configuration.upstreams.allSatisfy { $0.retryPolicy == RetryPolicy() && $0.circuitBreaker == CircuitBreakerSettings() })
    }

    @Test("every variable is read")
    func overrides() throws {
        let configuration = try load([
            "PORT": "9000", "HOST": "127.0.0.1", "LOG_LEVEL": "WARNING", "REQUEST_DEADLINE_MS": "1500", "EVENT_LOOPS": "3",
            "SHUTDOWN_DELAY_MS": "0",
            "UPSTREAM_SWAPI_URL": "http://127.0.0.1:9001/swapi/api/", "UPSTREAM_SWAPI_TIMEOUT_MS": "250",
            "UPSTREAM_SWAPI_MAX_CONNECTIONS": "8", "UPSTREAM_SWAPI_BEARER_TOKEN": "s3cret",
            "UPSTREAM_SWAPI_HEADERS": "X-Api-Key: abc; X-Tenant: blue",
        ])
        #expect(configuration.port == 9000)
        #expect(configuration.logLevel == .warning)
        #expect(configuration.requestDeadline == .milliseconds(1500))
        #expect(configuration.shutdownDelay == .zero)
        #expect(configuration.eventLoopCount == 3)
        let swapi = configuration.upstreams[1]
        #expect(swapi.baseURL.description == "http://127.0.0.1:9001/swapi/api")
        #expect(swapi.timeout == .milliseconds(250))
        #expect(swapi.maximumConnections == 8)
        #expect(swapi.bearerToken == "s3cret")
        #expect(swapi.headers == ["X-Api-Key": "abc", "X-Tenant": "blue"])
    }

    @Test(
        "a bad value names its variable",
        arguments: [
            ("PORT", "80000"), ("PORT", "http"), ("HOST", ""), ("LOG_LEVEL", "loud"), ("REQUEST_DEADLINE_MS", "0"),
            ("DRAIN_TIMEOUT_MS", "-1"), ("SHUTDOWN_DELAY_MS", "-1"), ("SHUTDOWN_DELAY_MS", "600001"),
            ("SHUTDOWN_DELAY_MS", "5s"), ("MAX_CONNECTIONS", "0"), ("MAX_CONNECTIONS_PER_CLIENT", "-1"),
            ("MAX_CONNECTIONS_PER_CLIENT", "many"), ("EVENT_LOOPS", "0"), ("EVENT_LOOPS", "257"),
            ("EVENT_LOOPS", "two"), ("UPSTREAM_DECK_URL", "ftp://deck"),
            ("UPSTREAM_SWAPI_URL", "swapi.dev/api"), ("UPSTREAM_MENU_URL", "http://menu/x?y=1"),
            ("UPSTREAM_SWAPI_TIMEOUT_MS", "fast"), ("UPSTREAM_DECK_MAX_CONNECTIONS", "0"),
            ("UPSTREAM_MENU_HEADERS", "no colon"), ("UPSTREAM_MENU_HEADERS", "Host: evil"),
            ("UPSTREAM_SWAPI_BEARER_TOKEN", "two words"), ("UPSTREAM_DECK_MAX_RESPONSE_BYTES", "1"),
            ("UPSTREAM_DECK_RETRY_ATTEMPTS", "0"), ("UPSTREAM_SWAPI_RETRY_ATTEMPTS", "11"), ("UPSTREAM_MENU_RETRY_ATTEMPTS", "three"),
            ("UPSTREAM_DECK_RETRY_BACKOFF_MS", "1001"), ("UPSTREAM_SWAPI_RETRY_BACKOFF_MS", "-1"),
            ("UPSTREAM_MENU_BREAKER_FAILURES", "10001"), ("UPSTREAM_DECK_BREAKER_FAILURES", "-1"),
            ("UPSTREAM_SWAPI_BREAKER_COOLDOWN_MS", "0"), ("UPSTREAM_MENU_BREAKER_COOLDOWN_MS", "600001"),
            ("UPSTREAM_MENU_MAX_REDIRECTS", "-1"), ("UPSTREAM_MENU_MAX_REDIRECTS", "21"), ("UPSTREAM_MENU_MAX_REDIRECTS", "five"),
            ("UPSTREAM_MENU_USER_AGENT", "menu\u{1}reader"), ("UPSTREAM_MENU_USER_AGENT", "tab\there"),
            ("UPSTREAM_MENU_USER_AGENT", " padded"), ("UPSTREAM_MENU_USER_AGENT", "café/1"),
            ("UPSTREAM_MENU_HEADERS", "User-Agent: menu-reader"), ("UPSTREAM_MENU_HEADERS", "tracestate: vendor=x"),
            ("CACHE_MAX_BYTES", "-1"), ("CACHE_MAX_BYTES", "64MiB"), ("CACHE_MAX_ENTRY_BYTES", "0"), ("UPSTREAM_MENU_CACHE", "yes"),
            ("UPSTREAM_SWAPI_CACHE_TTL_MS", "0"), ("UPSTREAM_SWAPI_CACHE_TTL_MS", "1m"), ("UPSTREAM_DECK_CACHE_STALE_IF_ERROR_MS", "-5"),
            ("UPSTREAM_DECK_CACHE_STALE_WHILE_REVALIDATE_MS", "31536000001"), ("UPSTREAM_MENU_CACHE_GATEWAY_CREDENTIALS", "public"),
        ])
    func badValue(variable: String, value: String) throws {
        let failure = try #require(error(for: [variable: value]))
        #expect(failure.variable == variable)
        #expect(failure.description.hasPrefix("configuration error: \(variable) "))
        #expect(!failure.description.contains("\n"))
    }

    @Test("the User-Agent is the gateway's and its version by default, set per upstream, none when set empty")
    func userAgent() throws {
        let configuration = try load(["UPSTREAM_SWAPI_USER_AGENT": "people-app/2.1 (+ops@example.com)", "UPSTREAM_MENU_USER_AGENT": ""])
        #expect(configuration.upstreams.map(\.userAgent) == [
            "swift-bff-gateway/\(GatewayVersion.current)", "people-app/2.1 (+ops@example.com)", nil,
        ])
        #expect(
            error(for: ["UPSTREAM_MENU_USER_AGENT": "menu\nX-Injected: 1"])?.description
                == "configuration error: UPSTREAM_MENU_USER_AGENT must be printable ASCII without control characters or "
                + "surrounding spaces, or empty, got an unprintable or overlong value")
        #expect(
            error(for: ["UPSTREAM_MENU_HEADERS": "X-Tenant: blue; user-agent: menu-reader"])?.description
                == "configuration error: UPSTREAM_MENU_HEADERS must not set User-Agent; UPSTREAM_MENU_USER_AGENT sets it")
    }

    @Test("retry attempts and backoff are read per upstream; the rest of the policy stays the library's")
    func retryPolicy() throws {
        let configuration = try load(["UPSTREAM_SWAPI_RETRY_ATTEMPTS": "1", "UPSTREAM_SWAPI_RETRY_BACKOFF_MS": "200"])
        var expected = RetryPolicy()
        expected.maximumAttempts = 1
        expected.initialBackoff = .milliseconds(200)
        #expect(configuration.upstreams[1].retryPolicy == expected)
        #expect(configuration.upstreams[0].retryPolicy == RetryPolicy())
        #expect(configuration.upstreams[2].retryPolicy == RetryPolicy())
    }

    @Test("the breaker's threshold and cool-down are read per upstream; 0 failures disables it")
    func circuitBreaker() throws {
        let configuration = try load([
            "UPSTREAM_DECK_BREAKER_FAILURES": "2", "UPSTREAM_DECK_BREAKER_COOLDOWN_MS": "2500",
            "UPSTREAM_MENU_BREAKER_FAILURES": "0", "UPSTREAM_MENU_BREAKER_COOLDOWN_MS": "2500",
        ])
        #expect(configuration.upstreams[0].circuitBreaker == CircuitBreakerSettings(failureThreshold: 2, coolDown: .milliseconds(2500)))
        #expect(configuration.upstreams[1].circuitBreaker == CircuitBreakerSettings())
        #expect(configuration.upstreams[2].circuitBreaker == .disabled)
    }

    @Test("redirects followed are read per upstream: 5 unless set, 0 follows none")
    func maximumRedirects() throws {
        let configuration = try load(["UPSTREAM_DECK_MAX_REDIRECTS": "0", "UPSTREAM_MENU_MAX_REDIRECTS": "12"])
        #expect(configuration.upstreams.map(\.maximumRedirects) == [0, 5, 12])
    }

    @Test(
        "retry and breaker values at the edges of their bounds are accepted",
        arguments: [
            ("RETRY_ATTEMPTS", "1"), ("RETRY_ATTEMPTS", "10"), ("RETRY_BACKOFF_MS", "0"), ("RETRY_BACKOFF_MS", "1000"),
            ("BREAKER_FAILURES", "0"), ("BREAKER_FAILURES", "10000"), ("BREAKER_COOLDOWN_MS", "1"),
            ("BREAKER_COOLDOWN_MS", "600000"), ("MAX_REDIRECTS", "0"), ("MAX_REDIRECTS", "20"),
        ])
    func resilienceBounds(suffix: String, value: String) {
        #expect(error(for: ["UPSTREAM_MENU_" + suffix: value]) == nil)
    }

    @Test("an out-of-range retry or breaker value gets one line stating the bounds")
    func resilienceMessages() {
        #expect(
            error(for: ["UPSTREAM_SWAPI_RETRY_ATTEMPTS": "11"])?.description
                == #"configuration error: UPSTREAM_SWAPI_RETRY_ATTEMPTS must be a whole number from 1 to 10, got "11""#)
        #expect(
            error(for: ["UPSTREAM_DECK_RETRY_BACKOFF_MS": "5000"])?.description
                == #"configuration error: UPSTREAM_DECK_RETRY_BACKOFF_MS must be a whole number from 0 to 1000, got "5000""#)
        #expect(
            error(for: ["UPSTREAM_MENU_BREAKER_FAILURES": "many"])?.description
                == #"configuration error: UPSTREAM_MENU_BREAKER_FAILURES must be a whole number from 0 to 10000, got "many""#)
        #expect(
            error(for: ["UPSTREAM_MENU_BREAKER_COOLDOWN_MS": "0"])?.description
                == #"configuration error: UPSTREAM_MENU_BREAKER_COOLDOWN_MS must be a whole number from 1 to 600000, got "0""#)
    }

    @Test("the configured retry policy and breaker reach the upstream")
    func configuredUpstream() throws {
        let configuration = try load([
            "UPSTREAM_SWAPI_RETRY_ATTEMPTS": "4", "UPSTREAM_SWAPI_RETRY_BACKOFF_MS": "10",
            "UPSTREAM_SWAPI_BREAKER_FAILURES": "7", "UPSTREAM_SWAPI_BREAKER_COOLDOWN_MS": "300",
        ]).upstreams[1]
        let configured = try ConfiguredUpstream(
            configuration: configuration, transport: ClosureTransport { _ throws(UpstreamError) in throw .connectionFailed(reason: "unused") })
        #expect(configured.upstream.settings.retryPolicy == configuration.retryPolicy)
        #expect(configured.upstream.settings.retryPolicy.maximumAttempts == 4)
        #expect(configured.upstream.settings.circuitBreaker == CircuitBreakerSettings(failureThreshold: 7, coolDown: .milliseconds(300)))
    }

    @Test("secrets never appear in the message", arguments: [
        ("UPSTREAM_SWAPI_BEARER_TOKEN", "top secret\u{1}"),
        ("UPSTREAM_SWAPI_HEADERS", "X-Api-Key: top secret\u{7}"),
        ("UPSTREAM_SWAPI_URL", "https://user:topsecret@swapi.dev/api"),
    ])
    func secretsAreNotPrinted(variable: String, value: String) throws {
        let failure = try #require(error(for: [variable: value]))
        #expect(failure.variable == variable)
        #expect(!failure.description.contains("secret"))
    }

    @Test("the default event loop count follows the cgroup CPU quota, rounded up")
    func processorQuota() {
        #expect(ProcessorBudget.quotaLimit(cpuMax: "150000 100000\n") == 2)
        #expect(ProcessorBudget.quotaLimit(cpuMax: "50000 100000") == 1)
        #expect(ProcessorBudget.quotaLimit(cpuMax: "max 100000\n") == nil)
        #expect(ProcessorBudget.quotaLimit(cpuMax: nil) == nil)
        #expect(ProcessorBudget.quotaLimit(quota: "400000\n", period: "100000\n") == 4)
        #expect(ProcessorBudget.quotaLimit(quota: "-1\n", period: "100000\n") == nil)
        #expect(ProcessorBudget.quotaLimit(quota: "100000", period: "0") == nil)
        #expect(ProcessorBudget.available >= 1)
    }

    @Test("the default event loop count follows the affinity mask of /proc/self/status")
    func processorAffinity() {
        #expect(ProcessorBudget.affinityCount(status: "Name:\tgateway\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n") == 2)
        #expect(ProcessorBudget.affinityCount(status: "Cpus_allowed:\tff,00000001\n") == 9)
        #expect(ProcessorBudget.affinityCount(status: "Cpus_allowed:\t0\n") == nil)
        #expect(ProcessorBudget.affinityCount(status: "Cpus_allowed:\tzz\n") == nil)
        #expect(ProcessorBudget.affinityCount(status: "Name:\tgateway\n") == nil)
        #expect(ProcessorBudget.affinityCount(status: nil) == nil)
    }

    @Test("docs/CONFIGURATION.md documents every variable --help lists")
    func configurationDocument() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/CONFIGURATION.md").path
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let example = UpstreamDefinition(name: "example", defaultBaseURL: "https://example.test")
        let names = (ConfigurationVariable.server + ConfigurationVariable.proxies).map(\.name)
            + ConfigurationVariable.all(for: example).map { $0.name.replacingOccurrences(of: "UPSTREAM_EXAMPLE_", with: "UPSTREAM_{NAME}_") }
        for name in names {
            #expect(document.contains("`\(name)`"), "docs/CONFIGURATION.md does not name \(name)")
        }
    }

    @Test("--help lists every variable with its default")
    func help() {
        let help = GatewayConfiguration.helpText(upstreams: upstreams)
        for name in ["PORT", "HOST", "LOG_LEVEL", "REQUEST_DEADLINE_MS", "SHUTDOWN_DELAY_MS", "DRAIN_TIMEOUT_MS", "MAX_CONNECTIONS",
                     "MAX_CONNECTIONS_PER_CLIENT", "EVENT_LOOPS"] {
            #expect(help.contains("  \(name) "))
        }
        for upstream in ["DECK", "SWAPI", "MENU"] {
            for suffix in [
                "URL", "TIMEOUT_MS", "MAX_CONNECTIONS", "BEARER_TOKEN", "HEADERS", "USER_AGENT", "MAX_RESPONSE_BYTES", "RETRY_ATTEMPTS",
                "RETRY_BACKOFF_MS", "BREAKER_FAILURES", "BREAKER_COOLDOWN_MS", "MAX_REDIRECTS",
            ] {
                #expect(help.contains("UPSTREAM_\(upstream)_\(suffix) "))
            }
        }
        #expect(help.contains("[https://swapi.dev/api]"))
        #expect(help.contains("[swift-bff-gateway/\(GatewayVersion.current)]"))
        #expect(help.contains("[8080]"))
        #expect(help.contains("unless set) [5000]"))
        // The defaults printed are the library's, so they cannot drift from what is used.
        #expect(help.contains("1 disables retries [\(RetryPolicy().maximumAttempts)]"))
        #expect(help.contains("jittered [\(RetryPolicy().initialBackoff.milliseconds)]"))
        #expect(help.contains("0 disables the breaker [\(CircuitBreakerSettings().failureThreshold)]"))
        #expect(help.contains("probe may pass [\(CircuitBreakerSettings().coolDown.milliseconds)]"))
    }

    @Test("the executable exits with 2 and one line for a bad variable")
    func commandExitStatus() async {
        let status = await GatewayCommand.run(arguments: [], environment: ["UPSTREAM_SWAPI_TIMEOUT_MS": "soon"], catalog: .reference)
        #expect(status == 2)
        #expect(await GatewayCommand.run(arguments: [], environment: ["UPSTREAM_DECK_RETRY_ATTEMPTS": "0"], catalog: .reference) == 2)
        #expect(await GatewayCommand.run(arguments: [], environment: ["SHUTDOWN_DELAY_MS": "soon"], catalog: .reference) == 2)
        #expect(await GatewayCommand.run(arguments: ["--bogus"], environment: [:], catalog: .reference) == 2)
        #expect(await GatewayCommand.run(arguments: ["--help"], environment: ["PORT": "bad"], catalog: .reference) == 0)
    }
}

@Suite("TLS configuration from the environment")
struct TLSConfigurationTests {
    private func error(for environment: [String: String]) -> ConfigurationError? {
        do {
            _ = try GatewayConfiguration(environment: environment, upstreams: GatewayCatalog.reference.upstreams)
            return nil
        } catch {
            return error
        }
    }

    @Test("https upstreams get a TLS context, http ones none; the server serves HTTP without files")
    func contexts() throws {
        let configuration = try GatewayConfiguration(
            environment: ["UPSTREAM_MENU_URL": "http://127.0.0.1:1/menu"], upstreams: GatewayCatalog.reference.upstreams)
        #expect(configuration.upstreams.map { $0.tls != nil } == [true, true, false])
        #expect(configuration.tls == nil)
    }

    @Test(
        "a missing, unreadable or invalid file stops start-up with one line naming its variable",
        arguments: [
            (["UPSTREAM_SWAPI_CA_FILE": "/nonexistent.pem"], "UPSTREAM_SWAPI_CA_FILE"),
            (["UPSTREAM_SWAPI_CA_FILE": TestCertificates.path("server.key")], "UPSTREAM_SWAPI_CA_FILE"),
            (["UPSTREAM_DECK_CLIENT_CERT_FILE": TestCertificates.path("client.pem")], "UPSTREAM_DECK_CLIENT_KEY_FILE"),
            ([
                "UPSTREAM_DECK_CLIENT_CERT_FILE": TestCertificates.path("client.pem"),
                "UPSTREAM_DECK_CLIENT_KEY_FILE": TestCertificates.path("server.key"),
            ], "UPSTREAM_DECK_CLIENT_KEY_FILE"),
            (["UPSTREAM_MENU_URL": "http://127.0.0.1:1/menu", "UPSTREAM_MENU_CA_FILE": TestCertificates.path("ca.pem")], "UPSTREAM_MENU_CA_FILE"),
            (["TLS_CERT_FILE": TestCertificates.path("server.pem")], "TLS_KEY_FILE"),
            (["TLS_KEY_FILE": TestCertificates.path("server.key")], "TLS_CERT_FILE"),
            (["TLS_CERT_FILE": "/nonexistent.pem", "TLS_KEY_FILE": TestCertificates.path("server.key")], "TLS_CERT_FILE"),
            (["TLS_CERT_FILE": TestCertificates.path("server.pem"), "TLS_KEY_FILE": TestCertificates.path("client.key")], "TLS_KEY_FILE"),
        ])
    func badFile(environment: [String: String], variable: String) throws {
        let failure = try #require(error(for: environment))
        #expect(failure.variable == variable)
        #expect(!failure.description.contains("\n"))
        #expect(!failure.description.contains("BEGIN"))
    }

    @Test("--help lists the TLS variables")
    func help() {
        let help = GatewayConfiguration.helpText(upstreams: GatewayCatalog.reference.upstreams)
        for name in ["TLS_CERT_FILE", "TLS_KEY_FILE", "UPSTREAM_SWAPI_CA_FILE", "UPSTREAM_SWAPI_CLIENT_CERT_FILE", "UPSTREAM_SWAPI_CLIENT_KEY_FILE"] {
            #expect(help.contains("  " + name + " "))
        }
    }
}
