import HTTP1Client
import ReferenceScenario
import Testing

@testable import Gateway

@Suite("Proxy variables")
struct ProxyVariablesTests {
    private func load(_ environment: [String: String]) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(environment: environment, upstreams: GatewayCatalog.reference.upstreams)
    }

    @Test func noProxyVariablesMeanDirectConnections() throws {
        #expect(try load([:]).proxy == nil)
        #expect(try load(["HTTP_PROXY": " ", "NO_PROXY": "*"]).proxy == nil)
    }

    @Test func readsEachSchemesProxyAndTheBypassList() throws {
        let proxy = try #require(try load([
            "HTTP_PROXY": "http://plain.internal:3128", "HTTPS_PROXY": "secure.internal:8080", "NO_PROXY": ".corp.example,10.0.0.0/8",
        ]).proxy)
        #expect(proxy.httpProxy == (try ProxyServer(url: "http://plain.internal:3128")))
        #expect(proxy.httpsProxy == (try ProxyServer(url: "http://secure.internal:8080")))
        #expect(proxy.bypass.includes(host: "api.corp.example", port: 443))
        #expect(proxy.bypass.includes(host: "10.1.2.3", port: 80))
        #expect(!proxy.bypass.includes(host: "swapi.dev", port: 443))
        #expect(UpstreamTransports(for: try load(["HTTP_PROXY": "plain.internal"])).proxy?.httpProxy?.host == "plain.internal")
    }

    @Test func lowerCaseWinsOverUpperCaseAsInCurl() throws {
        let proxy = try #require(try load([
            "HTTPS_PROXY": "upper.internal", "https_proxy": "lower.internal", "NO_PROXY": "upper.example", "no_proxy": "lower.example",
        ]).proxy)
        #expect(proxy.httpsProxy?.host == "lower.internal")
        #expect(proxy.httpProxy == nil)
        #expect(proxy.bypass.includes(host: "lower.example", port: 443))
        #expect(!proxy.bypass.includes(host: "upper.example", port: 443))
    }

    @Test func aMalformedProxyURLNamesTheVariableButNotItsValue() {
        #expect(throws: ConfigurationError(variable: "https_proxy", problem: ProxyServer.ParseError.invalidPort.description)) {
            try load(["https_proxy": "http://user:hunter2@proxy.internal:99999"])
        }
        #expect(throws: ConfigurationError(variable: "HTTPS_PROXY", problem: ProxyServer.ParseError.httpsProxy.description)) {
            try load(["HTTPS_PROXY": "https://user:hunter2@proxy.internal"])
        }
        do {
            _ = try load(["HTTP_PROXY": "http://user:hunter2@proxy.internal:port"])
            Issue.record("the malformed URL was accepted")
        } catch {
            #expect(error.description == "configuration error: HTTP_PROXY has an invalid port: it must be a number from 1 to 65535")
        }
    }

    @Test func startUpStopsWithStatus2ForAMalformedProxyURL() async {
        #expect(await GatewayCommand.run(arguments: [], environment: ["HTTP_PROXY": "ftp://proxy.internal"], catalog: .reference) == 2)
    }

    @Test func helpListsTheProxyVariables() {
        let help = GatewayConfiguration.helpText(upstreams: GatewayCatalog.reference.upstreams)
        #expect(help.contains("HTTP_PROXY") && help.contains("HTTPS_PROXY") && help.contains("NO_PROXY"))
    }
}
