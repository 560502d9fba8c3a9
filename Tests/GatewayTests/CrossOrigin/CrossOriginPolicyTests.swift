import HTTPBasics
import Testing

@testable import Gateway

@Suite("The CORS policy: origin matching, the fields of answers, preflight decisions")
struct CrossOriginPolicyTests {
    static func policy(
        _ origins: CrossOriginPolicy.Origins = .listed([try! WebOrigin("https://app.example"), try! WebOrigin("http://127.0.0.1:8200")]),
        headers: CrossOriginPolicy.AllowedHeaders = .listed("Authorization, Content-Type"), credentials: Bool = false,
        exposed: String? = "X-Request-ID"
    ) -> CrossOriginPolicy {
        CrossOriginPolicy(origins: origins, allowedHeaders: headers, allowsCredentials: credentials, exposedHeaders: exposed, maxAgeSeconds: 600)
    }

    @Test("an origin is allowed when listed exactly, in any case; scheme, host and port all count")
    func matchesOrigins() {
        let policy = Self.policy()
        #expect(policy.allowedOrigin(for: "https://app.example") == "https://app.example")
        #expect(policy.allowedOrigin(for: "HTTPS://APP.EXAMPLE") == "https://app.example")
        #expect(policy.allowedOrigin(for: "http://127.0.0.1:8200") == "http://127.0.0.1:8200")
        for other in ["http://app.example", "https://app.example:8443", "https://evil.app.example", "https://app.example.evil", "null", "", "http://127.0.0.1"] {
            #expect(policy.allowedOrigin(for: other) == nil, "\(other)")
        }
        #expect(Self.policy(.any).allowedOrigin(for: "https://anyone.example") == "*")
    }

    @Test("every answer varies by Origin; only an allowed origin's carries Access-Control fields")
    func fieldsOfAnswers() {
        let policy = Self.policy(credentials: true)
        var allowed: HTTPHeaders = ["Content-Type": "application/json"]
        policy.addFields(to: &allowed, origin: "https://app.example")
        #expect(allowed == HTTPHeaders([
            .init(name: "Content-Type", value: "application/json"), .init(name: "Vary", value: "Origin"),
            .init(name: "Access-Control-Allow-Origin", value: "https://app.example"),
            .init(name: "Access-Control-Allow-Credentials", value: "true"),
            .init(name: "Access-Control-Expose-Headers", value: "X-Request-ID"),
        ]))
        for origin in ["https://evil.example", nil] {
            var refused = HTTPHeaders()
            policy.addFields(to: &refused, origin: origin)
            #expect(Array(refused) == [.init(name: "Vary", value: "Origin")])
        }
        var open = HTTPHeaders()
        Self.policy(.any, exposed: nil).addFields(to: &open, origin: "https://anyone.example")
        #expect(open["Access-Control-Allow-Origin"] == "*")
        #expect(!open.contains("Access-Control-Allow-Credentials") && !open.contains("Access-Control-Expose-Headers"))
    }

    @Test("a preflight for a method the route serves: 204 with the route's methods for an allowed origin, Vary alone for another")
    func preflights() {
        let policy = Self.policy(credentials: true)
        let allowed = policy.preflightAnswer(
            origin: "https://app.example", requestedMethod: "GET", requestedHeaders: "authorization", methods: [.get, .head])
        #expect(allowed?.status == .noContent)
        #expect(allowed.map { Array($0.headers) } == [
            .init(name: "Vary", value: "Origin"),
            .init(name: "Access-Control-Allow-Origin", value: "https://app.example"),
            .init(name: "Access-Control-Allow-Credentials", value: "true"),
            .init(name: "Access-Control-Allow-Methods", value: "GET, HEAD"),
            .init(name: "Access-Control-Allow-Headers", value: "Authorization, Content-Type"),
            .init(name: "Access-Control-Max-Age", value: "600"),
        ])
        let refused = policy.preflightAnswer(origin: "https://evil.example", requestedMethod: "GET", requestedHeaders: nil, methods: [.get])
        #expect(refused?.status == .noContent)
        #expect(refused.map { Array($0.headers) } == [.init(name: "Vary", value: "Origin")])
        // No route, or none with the method: the router answers (404, 405) as it answers anything.
        #expect(policy.preflightAnswer(origin: "https://app.example", requestedMethod: "GET", requestedHeaders: nil, methods: []) == nil)
        #expect(policy.preflightAnswer(origin: "https://app.example", requestedMethod: "DELETE", requestedHeaders: nil, methods: [.get]) == nil)
    }

    @Test("allowed headers * echo what the preflight asks, when it is a list of field names")
    func requestedHeadersEchoed() {
        let policy = Self.policy(headers: .requested, credentials: true)
        let echoed = policy.preflightAnswer(
            origin: "https://app.example", requestedMethod: "POST", requestedHeaders: "authorization,content-type", methods: [.post])
        #expect(echoed?.headers["Access-Control-Allow-Headers"] == "authorization,content-type")
        #expect(echoed?.headers["Vary"] == "Origin, Access-Control-Request-Headers")
        let odd = policy.preflightAnswer(origin: "https://app.example", requestedMethod: "POST", requestedHeaders: "a b, (c)", methods: [.post])
        #expect(odd?.headers.contains("Access-Control-Allow-Headers") == false)
    }
}
