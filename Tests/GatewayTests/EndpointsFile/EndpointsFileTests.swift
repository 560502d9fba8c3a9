import ReferenceScenario
import Testing
import UpstreamKit

@testable import Gateway

/// The endpoints file's parser and checks: pure, no network.
@Suite("Endpoints file: parsing and start-up errors")
struct EndpointsFileTests {
    static func parse(_ text: String) throws(EndpointsFileError) -> EndpointsFile {
        try EndpointsFile(parsing: Array(text.utf8), alongside: .reference)
    }

    /// The fault for `text`, or nil when it is accepted.
    static func fault(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.fault
        }
    }

    /// One endpoint at `/x` with `calls` and `response` (JSON text), and `parameters`.
    static func endpoint(path: String = "/x", parameters: String = "{}", calls: String = "{}", response: String = "{}") -> String {
        #"{"endpoints":[{"path":"\#(path)","parameters":\#(parameters),"calls":\#(calls),"response":\#(response)}]}"#
    }

    @Test("the issue's example compiles: a new upstream and a GET endpoint with its parameters")
    func example() throws {
        let file = try Self.parse(#"""
            {
              "upstreams": { "starwars": { "url": "https://swapi.dev/api", "timeout_ms": 3000, "max_redirects": 2 } },
              "endpoints": [{
                "method": "GET",
                "path": "/v2/hero/{id}",
                "summary": "A character with their homeworld",
                "parameters": { "id": { "in": "path", "type": "integer", "minimum": 1, "maximum": 100 } },
                "calls": {
                  "person": { "upstream": "starwars", "path": "/people/{id}/" },
                  "world":  { "upstream": "starwars", "link": "{person.homeworld}", "optional": true }
                },
                "response": {
                  "hero": "{person.name}",
                  "homeworld": { "name": "{world.name}", "climate": "{world.climate}" },
                  "greeting": "Hello {person.name} of {world.name}",
                  "films": "{person.films[*]}"
                }
              }]
            }
            """#)
        let upstream = try #require(file.upstreams.first)
        #expect(file.upstreams.count == 1)
        #expect(upstream.name == "starwars" && upstream.defaultBaseURL == "https://swapi.dev/api" && upstream.defaultTimeout == .milliseconds(3000))
        #expect(upstream.defaultMaximumRedirects == 2)
        #expect(!upstream.defaultBreakerCountsServerErrors)
        let endpoint = try #require(file.endpoints.first)
        #expect(endpoint.path == "/v2/hero/:id")
        #expect(endpoint.optionalParts == ["world"])
        #expect(endpoint.parameters == [EndpointParameter(name: "id", location: .path, kind: .integer(range: 1...100, defaultValue: nil), summary: "")])
        let upstreams = GatewayCatalog.reference.adding(file).upstreams.map(\.name)
        #expect(upstreams == ["deck", "swapi", "menu", "starwars"])
    }

    @Test("breaker_server_errors is the default of UPSTREAM_{NAME}_BREAKER_SERVER_ERRORS, which overrides it")
    func breakerServerErrors() throws {
        let file = try Self.parse(#"{"upstreams":{"shop":{"url":"http://127.0.0.1:1","breaker_server_errors":true}}}"#)
        let shop = try #require(file.upstreams.first)
        #expect(shop.defaultBreakerCountsServerErrors)
        #expect(ConfigurationVariable.upstreamBreakerServerErrors(shop).defaultValue == "on")
        let counting = try GatewayConfiguration(environment: [:], upstreams: [shop])
        #expect(counting.upstreams[0].circuitBreaker.countsServerErrors)
        let overridden = try GatewayConfiguration(environment: ["UPSTREAM_SHOP_BREAKER_SERVER_ERRORS": "off"], upstreams: [shop])
        #expect(!overridden.upstreams[0].circuitBreaker.countsServerErrors)
    }

    @Test("invalid JSON names the line and column")
    func invalidJSON() {
        #expect(Self.fault("{\n  \"endpoints\": [\n    {\"path\": \"/x\",, }\n  ]\n}") == "invalid JSON at line 3, column 19: expected a string key")
        #expect(Self.fault("") == "invalid JSON at line 1, column 1: the document is empty")
    }

    @Test("unknown calls, parameters, upstreams and fields are refused by name")
    func unknownNames() {
        #expect(Self.fault(Self.endpoint(response: #"{"a":"{nobody.name}"}"#))
            == "endpoint GET /x: response: reference {nobody.name}: unknown call or parameter nobody")
        #expect(Self.fault(Self.endpoint(calls: #"{"a":{"upstream":"nowhere","path":"/a"}}"#)) == "endpoint GET /x: call a: unknown upstream nowhere (upstreams: deck, swapi, menu)")
        #expect(Self.fault(Self.endpoint(calls: #"{"a":{"upstream":"swappi","path":"/a"}}"#)) == "endpoint GET /x: call a: unknown upstream swappi; did you mean swapi?")
        #expect(Self.fault(Self.endpoint(calls: #"{"a":{"upstream":"swapi","path":"/a/{id}"}}"#))
            == "endpoint GET /x: call a: reference {id}: unknown call or parameter id")
        #expect(Self.fault(Self.endpoint(calls: #"{"a":{"upstream":"swapi","pth":"/a"}}"#))?.contains(#"call a: unknown field "pth""#) == true)
        #expect(Self.fault(#"{"endpoints":[],"upstream":{}}"#)?.contains(#"unknown field "upstream""#) == true)
    }

    @Test("a cycle between calls is named with the calls in it")
    func cycle() {
        let calls = #"{"a":{"upstream":"swapi","path":"/a/{c.id}"},"b":{"upstream":"swapi","path":"/b/{a.id}"},"c":{"upstream":"swapi","link":"{b.next}"}}"#
        #expect(Self.fault(Self.endpoint(calls: calls)) == "endpoint GET /x: cycle between calls a -> c -> b -> a")
        #expect(Self.fault(Self.endpoint(calls: #"{"a":{"upstream":"swapi","link":"{a.next}"}}"#)) == "endpoint GET /x: cycle between calls a -> a")
    }

    @Test("path parameters: declared ones must be in the path, and the path's must be declared")
    func pathParameters() {
        #expect(Self.fault(Self.endpoint(parameters: #"{"id":{"in":"path","type":"integer"}}"#))
            == "endpoint GET /x: path parameter id is missing from the path; write {id} in it")
        #expect(Self.fault(Self.endpoint(path: "/x/{id}"))
            == #"endpoint GET /x/{id}: the path names {id}, which is not declared in parameters with "in": "path""#)
        #expect(Self.fault(Self.endpoint(path: "/x/{id}/{id}", parameters: #"{"id":{"in":"path","type":"integer"}}"#))
            == "endpoint GET /x/:id/:id names a path parameter twice")
        #expect(Self.fault(Self.endpoint(path: "/x/a{id}", parameters: #"{"id":{"in":"path","type":"integer"}}"#))
            == "endpoint GET /x/a{id}: a path parameter must be a whole segment: a{id}")
    }

    @Test("a route that clashes with a built-in, an operations route or another file route is refused")
    func routeClashes() {
        #expect(Self.fault(Self.endpoint(path: "/healthz")) == "endpoint GET /healthz: route clashes with GET /healthz")
        #expect(Self.fault(Self.endpoint(path: "/v1/menu")) == "endpoint GET /v1/menu: route clashes with GET /v1/menu")
        #expect(Self.fault(Self.endpoint(path: "/v1/people/{n}", parameters: #"{"n":{"in":"path","type":"string"}}"#))?
            .hasPrefix("endpoint GET /v1/people/{n}: route clashes with GET /v1/people/{id}") == true)
        let twice = #"{"endpoints":[{"path":"/a","response":{}},{"path":"/a","response":{}}]}"#
        #expect(Self.fault(twice) == "endpoint GET /a: route clashes with GET /a")
        let otherMethod = #"{"endpoints":[{"path":"/a","response":{}},{"method":"POST","path":"/a","response":{}}]}"#
        #expect(Self.fault(otherMethod) == nil)
        #expect(Self.fault(Self.endpoint(path: "/v1/people/me")) == nil)
    }

    @Test("parameter declarations are checked; a bad pattern is a start-up error")
    func parameterDeclarations() {
        func fault(_ parameter: String) -> String? {
            Self.fault(Self.endpoint(parameters: #"{"p":\#(parameter)}"#))
        }
        #expect(fault(#"{"in":"query","type":"string","pattern":"[a-"}"#) == #"endpoint GET /x: parameter p: pattern "[a-" is not a valid regular expression"#)
        #expect(fault(#"{"in":"query","type":"float"}"#) == "endpoint GET /x: parameter p: type must be integer or string")
        #expect(fault(#"{"in":"header","type":"string"}"#) == "endpoint GET /x: parameter p: in must be path or query")
        #expect(fault(#"{"in":"query","type":"integer","minimum":5,"maximum":1}"#)?.contains("minimum and maximum") == true)
        #expect(fault(#"{"in":"query","type":"integer","maximum":9,"default":10}"#) == "endpoint GET /x: parameter p: default is outside minimum...maximum")
        #expect(fault(#"{"in":"query","type":"string","pattern":"[a-z]+","default":"A1"}"#)?.contains("default is not a valid value") == true)
        #expect(fault(#"{"in":"query","type":"string","required":true,"default":"a"}"#) == "endpoint GET /x: parameter p: a required parameter has no default")
        #expect(fault(#"{"in":"query","type":"integer","pattern":"1"}"#) == "endpoint GET /x: parameter p: pattern applies to string parameters")
        #expect(fault(#"{"in":"query","type":"string","maxLength":100000}"#) == "endpoint GET /x: parameter p: maxLength must be from 1 to 1000")
    }

    @Test("calls: path or link, no body on GET, query only with a path, a required call never reads an optional one")
    func calls() {
        func fault(_ calls: String) -> String? { Self.fault(Self.endpoint(calls: calls)) }
        #expect(fault(#"{"a":{"upstream":"swapi"}}"#) == "endpoint GET /x: call a: give either path or link")
        #expect(fault(#"{"a":{"upstream":"swapi","path":"/a","link":"{b}"}}"#) == "endpoint GET /x: call a: give either path or link")
        #expect(fault(#"{"a":{"upstream":"swapi","path":"/a","body":{}}}"#) == "endpoint GET /x: call a: a GET call has no body")
        #expect(fault(#"{"a":{"upstream":"swapi","path":"a"}}"#)?.contains("path must start with /") == true)
        #expect(fault(#"{"a":{"upstream":"swapi","path":"/a/../b"}}"#) == "endpoint GET /x: call a: path has an empty, . or .. segment")
        #expect(fault(#"{"a":{"upstream":"swapi","path":"/a?b=1"}}"#)?.contains("put query parameters in query") == true)
        #expect(fault(#"{"a":{"upstream":"swapi","path":"/a","optional":true},"b":{"upstream":"swapi","link":"{a.next}"}}"#)
            == "endpoint GET /x: call b reads optional call a, so it must be optional too")
        #expect(fault(#"{"a":{"upstream":"swapi","method":"POST","path":"/a","body":{"n":"{b.n}"}},"b":{"upstream":"swapi","path":"/b"}}"#) == nil)
    }

    @Test("upstreams: a valid URL, a name of their own, a sane timeout")
    func upstreams() {
        #expect(Self.fault(#"{"upstreams":{"swapi":{"url":"http://a"}}}"#) == "upstream swapi clashes with upstream swapi (both use UPSTREAM_SWAPI_* variables)")
        #expect(Self.fault(#"{"upstreams":{"my-api":{"url":"http://a"},"my_api":{"url":"http://b"}}}"#)?.contains("clashes with upstream my-api") == true)
        #expect(Self.fault(#"{"upstreams":{"a":{"url":"ftp://a"}}}"#) == "upstream a: url is not a valid base URL (scheme is not http or https)")
        #expect(Self.fault(#"{"upstreams":{"a":{"url":"http://a","timeout_ms":0}}}"#) == "upstream a: timeout_ms must be from 1 to 600000")
        #expect(Self.fault(#"{"upstreams":{"a":{"url":"http://a","max_redirects":21}}}"#) == "upstream a: max_redirects must be from 0 to 20")
        #expect(Self.fault(#"{"upstreams":{"a":{"url":"http://a","breaker_server_errors":"on"}}}"#) == "upstream a: breaker_server_errors must be true or false")
        #expect(Self.fault(#"{"upstreams":{"a b":{"url":"http://a"}}}"#)?.contains("an upstream name is") == true)
        // What the gateway checks of every catalog is checked of the file's part, so the line names the file.
        #expect(Self.fault(#"{"upstreams":{"my_api":{"url":"http://a"}}}"#) == #"upstream "my_api" must be named with letters, digits and '-'"#)
        let many = "{\"upstreams\":{" + (0...100).map { #""u\#($0)":{"url":"http://a"}"# }.joined(separator: ",") + "}}"
        #expect(Self.fault(many) == "the file defines more than 100 upstreams")
    }

    @Test("cache settings on upstreams and calls are read, and a bad one is one line")
    func cacheSettings() throws {
        let file = try Self.parse(#"""
            {"upstreams":{"shop":{"url":"http://shop","cache":{"ttl_ms":60000,"stale_if_error_ms":600000,"gateway_credentials":"private"}}},
             "endpoints":[{"path":"/x","calls":{"a":{"upstream":"shop","path":"/a","cache":{"enabled":false}}},"response":{}}]}
            """#)
        let cache = try #require(file.upstreams.first?.cache)
        #expect(cache == CacheSettings(defaultFreshness: .seconds(60), staleIfError: .seconds(600), sharesGatewayCredentials: false))
        #expect(Self.fault(#"{"upstreams":{"a":{"url":"http://a","cache":{"ttl":5}}}}"#)?.hasPrefix(#"upstream a cache: unknown field "ttl""#) == true)
        #expect(Self.fault(#"{"upstreams":{"a":{"url":"http://a","cache":{"ttl_ms":0}}}}"#) == "upstream a cache: ttl_ms must be from 1 to 31536000000")
        #expect(Self.fault(#"{"upstreams":{"a":{"url":"http://a","cache":{"gateway_credentials":"no"}}}}"#)
            == "upstream a cache: gateway_credentials must be shared or private")
        #expect(Self.fault(Self.endpoint(calls: #"{"a":{"upstream":"swapi","path":"/a","cache":{"enabled":"no"}}}"#))
            == "endpoint GET /x: call a: cache: enabled must be true or false")
    }

    @Test("proxies: a path and an upstream of the file or the catalog, and an optional summary")
    func proxies() throws {
        let file = try Self.parse(#"""
            { "upstreams": { "origin": { "url": "http://127.0.0.1:8000" } },
              "proxies": [ { "path": "/ct", "upstream": "origin" } ] }
            """#)
        let proxy = try #require(file.proxies.first)
        #expect(file.proxies.count == 1)
        #expect(proxy.path == "/ct" && proxy.upstream == "origin" && proxy.summary == "Requests below /ct, passed to upstream origin")
        let builtIn = try Self.parse(#"{"proxies":[{"path":"/sw","upstream":"swapi","summary":"SWAPI as it is"},{"path":"/sw/v2","upstream":"menu"}]}"#)
        #expect(builtIn.proxies.map { "\($0.path) \($0.upstream) \($0.summary)" }
            == ["/sw swapi SWAPI as it is", "/sw/v2 menu Requests below /sw/v2, passed to upstream menu"])
        #expect(GatewayCatalog.reference.adding(builtIn).proxies.map(\.path) == ["/sw", "/sw/v2"])
    }

    @Test("proxies: unknown fields and upstreams, bad paths and clashes are one line each")
    func proxyFaults() {
        func fault(_ proxies: String) -> String? { Self.fault(#"{"proxies":\#(proxies)}"#) }
        #expect(fault(#"[{"path":"/ct","upstream":"swapi","strip":true}]"#)
            == #"proxies[0]: unknown field "strip"; expected one of authentication, max_request_bytes, path, rate_limit, scopes, summary, upstream, upstream_credentials"#)
        #expect(fault(#"[{"upstream":"swapi"}]"#) == "proxies[0]: path is missing")
        #expect(fault(#"[{"path":"/ct"}]"#) == "proxies[0]: upstream is missing")
        #expect(fault(#"[{"path":1,"upstream":"swapi"}]"#) == "proxies[0]: path must be a string")
        #expect(fault(#"[{"path":"/ct","upstream":"swapi","summary":false}]"#) == "proxies[0]: summary must be a string")
        #expect(fault(#"[{"path":"/ct","upstream":"nowhere"}]"#) == "proxy /ct: unknown upstream nowhere (upstreams: deck, swapi, menu)")
        #expect(fault(#"[{"path":"/ct","upstream":"mneu"}]"#) == "proxy /ct: unknown upstream mneu; did you mean menu?")
        #expect(fault(#"[{"path":"/ct/","upstream":"swapi"}]"#) == "proxy /ct/: its path must not end with /; /ct serves /ct/ and below too")
        #expect(fault(#"[{"path":"/ct/{id}","upstream":"swapi"}]"#) == "proxy /ct/{id}: its path has no parameters; every path below it is passed on")
        #expect(fault(#"[{"path":"ct","upstream":"swapi"}]"#) == "proxy ct: its path must start with /")
        #expect(fault(#"[{"path":"/a/../b","upstream":"swapi"}]"#)?.hasPrefix("proxy /a/../b: its path must be segments of") == true)
        #expect(fault(#"[{"path":"/","upstream":"swapi"}]"#) == "proxy /: the root / would take every path, the operations routes' too")
        #expect(fault(#"[{"path":"/metrics","upstream":"swapi"}]"#) == "proxy /metrics: it would take requests for the operations route /metrics")
        #expect(fault(#"[{"path":"/ct","upstream":"swapi"},{"path":"/ct","upstream":"menu"}]"#) == "proxy /ct is defined twice")
        #expect(fault(#"{"path":"/ct","upstream":"swapi"}"#) == "proxies must be an array")
        #expect(fault(#"["/ct"]"#) == "proxies[0] must be an object")
        #expect(fault("[" + (0...100).map { #"{"path":"/p\#($0)","upstream":"swapi"}"# }.joined(separator: ",") + "]")
            == "the file defines more than 100 proxies")
    }

    @Test("the command stops with status 2 when the file cannot be read")
    func commandRefusesAnUnreadableFile() async {
        let environment = ["GATEWAY_ENDPOINTS_FILE": "/nonexistent/endpoints.json"]
        #expect(await GatewayCommand.run(arguments: [], environment: environment, catalog: .reference) == 2)
    }

    @Test("hostile files fail with a clear message: deep nesting, huge files, long references, stray braces")
    func hostileFiles() {
        #expect(Self.fault(String(repeating: "[", count: 100_000)) == "invalid JSON at line 1, column 33: arrays and objects are nested more than 32 levels deep")
        let huge = #"{"endpoints":[], "padding": ""# + String(repeating: "x", count: EndpointsFile.maximumSize) + #""}"#
        #expect(Self.fault(huge) == "the file is larger than 1048576 bytes")
        let longReference = "{" + String(repeating: "a.", count: 200) + "b}"
        #expect(Self.fault(Self.endpoint(response: #"{"a":"\#(longReference)"}"#)) == "endpoint GET /x: response: a reference is longer than 256 characters")
        #expect(Self.fault(#"{"endpoints":[{"method":"GET\nX","path":"/x","response":{}}]}"#)
            == #"endpoint GET\nX /x: method must be one of GET, POST, PUT, PATCH, DELETE"#)
        #expect(Self.fault(Self.endpoint(calls: #"{"a\u2028":{"upstream":"swapi","path":"/"}}"#))
            == #"endpoint GET /x: call a\u{2028}: a call name is 1 to 64 letters, digits, _ or -"#)
        #expect(Self.fault(Self.endpoint(path: "/" + String(repeating: "a", count: 1024)))?.hasSuffix(": path is longer than 1024 bytes") == true)
        #expect(Self.fault(Self.endpoint(response: #"{"a":"{oops"}"#))?.contains("unclosed {") == true)
        #expect(Self.fault(Self.endpoint(response: #"{"a":"oops}"}"#))?.contains("unmatched }") == true)
        #expect(Self.fault(Self.endpoint(response: #"{"a":"{a b}"}"#))?.contains("invalid reference {a b}") == true)
        #expect(Self.fault(Self.endpoint(response: #"{"degraded":1}"#))?.contains("degraded is added by the gateway") == true)
        func endpoints(_ count: Int) -> String {
            "{\"endpoints\":[" + (0..<count).map { #"{"path":"/e\#($0)","response":[\#($0)]}"# }.joined(separator: ",") + "]}"
        }
        #expect(Self.fault(endpoints(100)) == nil)
        #expect(Self.fault(endpoints(1001)) == "the file defines more than 1000 endpoints")
        let calls = "{" + (0...64).map { #""c\#($0)":{"upstream":"swapi","path":"/"}"# }.joined(separator: ",") + "}"
        #expect(Self.fault(Self.endpoint(calls: calls)) == "endpoint GET /x: an endpoint has at most 64 calls")
    }

    @Test("a template of many distinct references compiles")
    func manyReferences() throws {
        let references = (0..<20_000).map { #""{a.f\#($0)}""# }.joined(separator: ",")
        let file = try Self.parse(Self.endpoint(calls: #"{"a":{"upstream":"swapi","path":"/"}}"#, response: "[\(references)]"))
        #expect(file.endpoints.count == 1)
    }

    @Test("a template of most of a megabyte of constants compiles (its literal run grows in place)")
    func manyConstants() throws {
        let constants = Array(repeating: "1", count: 400_000).joined(separator: ",")
        let file = try Self.parse(Self.endpoint(response: "[\(constants)]"))
        #expect(file.endpoints.count == 1)
    }

    @Test("the line and column of a byte offset")
    func location() {
        let bytes = Array("ab\ncd\nef".utf8)
        #expect(EndpointsFile.location(of: 0, in: bytes) == " at line 1, column 1")
        #expect(EndpointsFile.location(of: 4, in: bytes) == " at line 2, column 2")
        #expect(EndpointsFile.location(of: nil, in: bytes) == "")
    }
}
