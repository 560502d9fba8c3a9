import Testing

@testable import Gateway

@Suite("CORS from the environment")
struct CrossOriginConfigurationTests {
    private func policy(_ environment: [String: String]) throws(ConfigurationError) -> CrossOriginPolicy? {
        try EnvironmentReader(environment: environment).crossOriginPolicy()
    }

    private func problem(_ environment: [String: String]) -> String? {
        do {
            _ = try policy(environment)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("off unless CORS_ALLOWED_ORIGINS is set; the defaults expose the request id and the rate-limit fields")
    func defaults() throws {
        #expect(try policy([:]) == nil)
        #expect(try policy(["CORS_ALLOWED_ORIGINS": " "]) == nil)
        let read = try #require(try policy(["CORS_ALLOWED_ORIGINS": "https://App.example, http://127.0.0.1:8200,https://app.example"]))
        #expect(read.origins == .listed([try WebOrigin("https://app.example"), try WebOrigin("http://127.0.0.1:8200")]))
        #expect(read.allowedHeaders == .listed("Authorization, Content-Type, X-Request-ID, traceparent, tracestate"))
        #expect(!read.allowsCredentials)
        #expect(read.exposedHeaders == "X-Request-ID, X-Gateway-Completed, RateLimit, RateLimit-Policy, Retry-After")
        #expect(read.maxAgeSeconds == 600)
    }

    @Test("every variable is read")
    func everyVariable() throws {
        let open = try #require(try policy([
            "CORS_ALLOWED_ORIGINS": "*", "CORS_ALLOWED_HEADERS": "*", "CORS_EXPOSED_HEADERS": "", "CORS_MAX_AGE_MS": "0",
        ]))
        #expect(open == CrossOriginPolicy(origins: .any, allowedHeaders: .requested, allowsCredentials: false, exposedHeaders: nil, maxAgeSeconds: 0))
        let credentialed = try #require(try policy([
            "CORS_ALLOWED_ORIGINS": "https://a.example", "CORS_ALLOW_CREDENTIALS": "on", "CORS_ALLOWED_HEADERS": "X-One,X-Two",
            "CORS_EXPOSED_HEADERS": "ETag", "CORS_MAX_AGE_MS": "7200000",
        ]))
        #expect(credentialed.allowsCredentials && credentialed.allowedHeaders == .listed("X-One, X-Two"))
        #expect(credentialed.exposedHeaders == "ETag" && credentialed.maxAgeSeconds == 7200)
    }

    @Test(arguments: [
        (["CORS_ALLOWED_ORIGINS": "*", "CORS_ALLOW_CREDENTIALS": "on"],
         "CORS_ALLOWED_ORIGINS cannot be * with CORS_ALLOW_CREDENTIALS=on: a page of any site could then act with its visitor's cookies; list the origins"),
        (["CORS_ALLOWED_ORIGINS": "https://app.example/"],
         #"CORS_ALLOWED_ORIGINS entry "https://app.example/" has a path, query or fragment; an origin is scheme://host[:port] alone, without even a trailing / (* alone allows every origin)"#),
        (["CORS_ALLOWED_ORIGINS": "https://a.example, *"],
         #"CORS_ALLOWED_ORIGINS entry "*" is not scheme://host[:port] (* alone allows every origin)"#),
        (["CORS_ALLOWED_ORIGINS": "null"],
         #"CORS_ALLOWED_ORIGINS entry "null" null is the origin of sandboxed and file: documents, which anyone can make; it cannot be allowed (* alone allows every origin)"#),
        (["CORS_ALLOW_CREDENTIALS": "on"], "CORS_ALLOW_CREDENTIALS needs CORS_ALLOWED_ORIGINS, which turns CORS on"),
        (["CORS_ALLOWED_ORIGIN": "https://a.example"], "CORS_ALLOWED_ORIGIN is not a CORS variable; did you mean CORS_ALLOWED_ORIGINS?"),
        (["CORS_ORIGINS": "https://a.example", "CORS_ALLOWED_ORIGINS": "https://a.example"], "CORS_ORIGINS is not a CORS variable"),
        (["CORS_ALLOWED_ORIGINS": "https://a.example", "CORS_ALLOW_CREDENTIALS": "yes"], #"CORS_ALLOW_CREDENTIALS must be on or off, got "yes""#),
        (["CORS_ALLOWED_ORIGINS": "https://a.example", "CORS_ALLOWED_HEADERS": "X-Ok, Bad Name"],
         #"CORS_ALLOWED_HEADERS entry "Bad Name" is not a field name"#),
        (["CORS_ALLOWED_ORIGINS": "https://a.example", "CORS_ALLOWED_HEADERS": "*, X-Ok"], "CORS_ALLOWED_HEADERS must be * alone or a list of field names"),
        (["CORS_ALLOWED_ORIGINS": "https://a.example", "CORS_ALLOW_CREDENTIALS": "on", "CORS_EXPOSED_HEADERS": "*"],
         "CORS_EXPOSED_HEADERS cannot be * with CORS_ALLOW_CREDENTIALS=on, where browsers read it as a field named *"),
        (["CORS_ALLOWED_ORIGINS": "https://a.example", "CORS_MAX_AGE_MS": "1500"],
         "CORS_MAX_AGE_MS must be whole seconds (a multiple of 1000): Access-Control-Max-Age counts seconds, got 1500"),
        (["CORS_ALLOWED_ORIGINS": "https://a.example", "CORS_MAX_AGE_MS": "-1"], #"CORS_MAX_AGE_MS must be a whole number from 0 to 86400000, got "-1""#),
    ])
    func refusesMistakes(environment: [String: String], line: String) {
        #expect(problem(environment) == "configuration error: " + line)
    }
}
