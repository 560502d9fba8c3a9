import HTTPBasics
import Testing

@testable import Gateway

@Suite("Configuration from the environment")
struct ConfigurationTests {
    private let upstreams = GatewayCatalog.builtIn.upstreams

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
        #expect(configuration.upstreams.map(\.name) == ["deck", "swapi", "menu"])
        #expect(configuration.upstreams[1].baseURL.description == "https://swapi.dev/api")
        #expect(configuration.upstreams[1].bearerToken == nil)
        #expect(configuration.upstreams[1].timeout == .seconds(5))
    }

    @Test("every variable is read")
    func overrides() throws {
        let configuration = try load([
            "PORT": "9000", "HOST": "127.0.0.1", "LOG_LEVEL": "WARNING", "REQUEST_DEADLINE_MS": "1500",
            "UPSTREAM_SWAPI_URL": "http://127.0.0.1:9001/swapi/api/", "UPSTREAM_SWAPI_TIMEOUT_MS": "250",
            "UPSTREAM_SWAPI_MAX_CONNECTIONS": "8", "UPSTREAM_SWAPI_BEARER_TOKEN": "s3cret",
            "UPSTREAM_SWAPI_HEADERS": "X-Api-Key: abc; X-Tenant: blue",
        ])
        #expect(configuration.port == 9000)
        #expect(configuration.logLevel == .warning)
        #expect(configuration.requestDeadline == .milliseconds(1500))
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
            ("DRAIN_TIMEOUT_MS", "-1"), ("MAX_CONNECTIONS", "0"), ("UPSTREAM_DECK_URL", "ftp://deck"),
            ("UPSTREAM_SWAPI_URL", "swapi.dev/api"), ("UPSTREAM_MENU_URL", "http://menu/x?y=1"),
            ("UPSTREAM_SWAPI_TIMEOUT_MS", "fast"), ("UPSTREAM_DECK_MAX_CONNECTIONS", "0"),
            ("UPSTREAM_MENU_HEADERS", "no colon"), ("UPSTREAM_MENU_HEADERS", "Host: evil"),
            ("UPSTREAM_SWAPI_BEARER_TOKEN", "two words"), ("UPSTREAM_DECK_MAX_RESPONSE_BYTES", "1"),
        ])
    func badValue(variable: String, value: String) throws {
        let failure = try #require(error(for: [variable: value]))
        #expect(failure.variable == variable)
        #expect(failure.description.hasPrefix("configuration error: \(variable) "))
        #expect(!failure.description.contains("\n"))
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

    @Test("--help lists every variable with its default")
    func help() {
        let help = GatewayConfiguration.helpText(upstreams: upstreams)
        for name in ["PORT", "HOST", "LOG_LEVEL", "REQUEST_DEADLINE_MS", "DRAIN_TIMEOUT_MS", "MAX_CONNECTIONS"] {
            #expect(help.contains("  \(name) "))
        }
        for upstream in ["DECK", "SWAPI", "MENU"] {
            for suffix in ["URL", "TIMEOUT_MS", "MAX_CONNECTIONS", "BEARER_TOKEN", "HEADERS", "MAX_RESPONSE_BYTES"] {
                #expect(help.contains("UPSTREAM_\(upstream)_\(suffix) "))
            }
        }
        #expect(help.contains("[https://swapi.dev/api]"))
        #expect(help.contains("[8080]"))
    }

    @Test("the executable exits with 2 and one line for a bad variable")
    func commandExitStatus() async {
        let status = await GatewayCommand.run(arguments: [], environment: ["UPSTREAM_SWAPI_TIMEOUT_MS": "soon"])
        #expect(status == 2)
        #expect(await GatewayCommand.run(arguments: ["--bogus"], environment: [:]) == 2)
        #expect(await GatewayCommand.run(arguments: ["--help"], environment: ["PORT": "bad"]) == 0)
    }
}
