import GatewayTesting
import HTTP1
import HTTP1Client
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway

/// Gzip for the gateway's clients, through real sockets: combined answers, problems, operations
/// routes and proxied answers, `COMPRESSION` and `COMPRESSION_MIN_BYTES`.
@Suite("Compression to clients")
struct ClientCompressionTests {
    /// The status and fields of a raw response's head (names lowercased; repeated ones joined by ", ").
    struct Head {
        let status: Int
        let fields: [String: String]

        init(_ raw: String) {
            let head = raw.split(separator: "\r\n\r\n", maxSplits: 1).first ?? ""
            let lines = head.split(separator: "\r\n")
            status = RawHTTP.status(of: raw) ?? 0
            var fields: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased(), value = String(line[line.index(after: colon)...].trimmingWhitespace)
                fields[name] = fields[name].map { $0 + ", " + value } ?? value
            }
            self.fields = fields
        }

        subscript(name: String) -> String? { fields[name.lowercased()] }
    }

    /// The head of the answer to `method target` with `fields`, sent byte for byte.
    static func head(
        _ target: String, _ fields: [String] = ["Accept-Encoding: gzip"], method: String = "GET", port: Int
    ) async throws -> Head {
        let request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n"
        return Head(try await RawHTTP.exchange(request, port: port))
    }

    /// `GET target` with our own client asking for gzip and deflate and inflating the answer.
    static func inflated(_ target: String, port: Int) async throws -> HTTPResponse {
        let client = HTTPClient()
        defer { client.shutdown() }
        let request = HTTPClientRequest(method: .get, host: "127.0.0.1", port: port, target: target, acceptsCompression: true)
        return try await client.send(request, timeout: .seconds(10), maximumResponseBytes: 1 << 20)
    }

    @Test("a combined answer goes gzipped to a client that accepts it and inflates to the same bytes; metrics count it")
    func roundTrip() async throws {
        try await withScenarioGateway(environment: ["COMPRESSION_MIN_BYTES": "100"]) { gateway, _ in
            let plain = try await gateway.get("/v1/people/1")
            #expect(plain.status == 200 && plain.headers["Content-Encoding"] == nil)
            #expect(plain.headers["Vary"] == "Accept-Encoding")
            let raw = try await Self.head("/v1/people/1", port: gateway.port)
            #expect(raw.status == 200 && raw["Content-Encoding"] == "gzip" && raw["Vary"] == "Accept-Encoding")
            let length = try #require(raw["Content-Length"].flatMap { Int($0) })
            #expect(length < plain.body.count)
            let inflated = try await Self.inflated("/v1/people/1", port: gateway.port)
            #expect(inflated.status.code == 200 && inflated.body == plain.body)
            let metrics = try await gateway.get("/metrics").text
            #expect(metrics.contains("gateway_compressed_responses_total 2\n"))
            #expect(metrics.contains("gateway_compression_input_bytes_total \(2 * plain.body.count)\n"))
            #expect(metrics.contains("gateway_compression_output_bytes_total \(2 * length)\n"))
        }
    }

    @Test("below COMPRESSION_MIN_BYTES (1 KiB by default) identity goes without Vary; refused by q=0 or not asked for, with Vary")
    func identity() async throws {
        try await withScenarioGateway { gateway, _ in
            let small = try await Self.head("/v1/people/1", port: gateway.port)
            #expect(small.status == 200 && small["Content-Encoding"] == nil && small["Vary"] == nil)
            let metrics = try await Self.head("/metrics", port: gateway.port)
            #expect(metrics.status == 200 && metrics["Content-Encoding"] == "gzip")
            for fields in [["Accept-Encoding: gzip;q=0"], ["Accept-Encoding: *, gzip;q=0"], ["Accept-Encoding: gzip;q=0.5, identity"], []] {
                let refused = try await Self.head("/metrics", fields, port: gateway.port)
                #expect(refused.status == 200 && refused["Content-Encoding"] == nil && refused["Vary"] == "Accept-Encoding")
            }
            let refusesIdentity = try await Self.head("/v1/people/1", ["Accept-Encoding: gzip, identity;q=0"], port: gateway.port)
            #expect(refusesIdentity["Content-Encoding"] == nil && refusesIdentity["Vary"] == nil)
        }
    }

    @Test("HEAD gets the identity answer's fields and Vary, however large the body")
    func head() async throws {
        try await withScenarioGateway(environment: ["COMPRESSION_MIN_BYTES": "0"]) { gateway, _ in
            let get = try await gateway.get("/v1/people/1")
            let head = try await Self.head("/v1/people/1", method: "HEAD", port: gateway.port)
            #expect(head.status == 200 && head["Content-Encoding"] == nil && head["Vary"] == "Accept-Encoding")
            #expect(head["Content-Length"] == String(get.body.count))
        }
    }

    @Test("problems and operations routes are compressed in the same one place")
    func problemsAndOperations() async throws {
        try await withScenarioGateway(environment: ["COMPRESSION_MIN_BYTES": "0"]) { gateway, _ in
            let problem = try await Self.head("/v1/people/abc", port: gateway.port)
            #expect(problem.status == 400 && problem["Content-Encoding"] == "gzip" && problem["Content-Type"] == "application/problem+json")
            let unmatched = try await Self.head("/nowhere", port: gateway.port)
            #expect(unmatched.status == 404 && unmatched["Vary"] == "Accept-Encoding")
            let openAPI = try await Self.inflated("/openapi.json", port: gateway.port)
            #expect(openAPI.status.code == 200 && String(decoding: openAPI.body, as: UTF8.self).hasPrefix("{\"openapi\":"))
        }
    }

    @Test("COMPRESSION=off sends identity without Vary")
    func off() async throws {
        try await withScenarioGateway(environment: ["COMPRESSION": "off"]) { gateway, _ in
            let metrics = try await Self.head("/metrics", port: gateway.port)
            #expect(metrics.status == 200 && metrics["Content-Encoding"] == nil && metrics["Vary"] == nil)
            #expect(!(try await gateway.get("/metrics")).text.contains("gateway_compressed_responses_total"))
        }
    }

    @Test("COMPRESSION must be on or off and COMPRESSION_MIN_BYTES a whole number", arguments: [
        ("COMPRESSION", "yes", "must be on or off"), ("COMPRESSION_MIN_BYTES", "-1", "must be a whole number from 0 to 1073741824"),
        ("COMPRESSION_MIN_BYTES", "1k", "must be a whole number"),
    ])
    func invalid(name: String, value: String, problem: String) throws {
        #expect(try GatewayConfiguration(environment: [:], upstreams: []).compression?.minimumBytes == 1024)
        do {
            _ = try GatewayConfiguration(environment: [name: value], upstreams: [])
            Issue.record("\(name)=\(value) was accepted")
        } catch {
            #expect(error.variable == name)
            #expect(error.problem.hasPrefix(problem))
        }
    }

    /// Behind `/api`, `/doc` goes to it.
    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    static let proxyCatalog = GatewayCatalog(upstreams: [origin], endpoints: [], proxies: [ProxyRoute("/doc", upstream: origin)])
    static let document = Array(("{\"items\":[" + (0..<200).map { "{\"id\":\($0),\"name\":\"item \($0)\"}" }.joined(separator: ",") + "]}").utf8)

    @Test("a proxied answer with a strong ETag goes gzipped with a weak one; revalidating with it gives the upstream's 304 as it is")
    func conditional() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        // The upstream compares If-None-Match weakly, as RFC 9110 §13.1.2 says a server does.
        stub.answer("/api") { request in
            let tags = request.headers["If-None-Match"]?.split(separator: ",").map { $0.trimmingWhitespace } ?? []
            if tags.contains(where: { $0 == "\"v1\"" || $0 == "W/\"v1\"" }) {
                return HTTPResponse(status: .notModified, headers: ["ETag": "\"v1\""])
            }
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json", "ETag": "\"v1\""], body: Self.document)
        }
        try await withGateway(catalog: Self.proxyCatalog, environment: ["UPSTREAM_ORIGIN_URL": stub.baseURL + "/api"]) { gateway in
            let gzip = try await Self.head("/doc", port: gateway.port)
            #expect(gzip.status == 200 && gzip["Content-Encoding"] == "gzip" && gzip["ETag"] == "W/\"v1\"" && gzip["Vary"] == "Accept-Encoding")
            let identity = try await Self.head("/doc", [], port: gateway.port)
            #expect(identity.status == 200 && identity["Content-Encoding"] == nil && identity["ETag"] == "\"v1\"")
            #expect(identity["Content-Length"] == String(Self.document.count))
            let revalidated = try await Self.head("/doc", ["Accept-Encoding: gzip", "If-None-Match: W/\"v1\""], port: gateway.port)
            #expect(revalidated.status == 304 && revalidated["ETag"] == "\"v1\"")
            #expect(revalidated["Content-Encoding"] == nil)
        }
    }

    @Test("a gzip answer from the upstream is inflated by the gateway's client and gzipped again only for a client that accepts it")
    func proxiedGzip() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        let gzip = try Deflater().gzip(Self.document)
        stub.answer("/api") { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"], body: gzip)
        }
        try await withGateway(catalog: Self.proxyCatalog, environment: ["UPSTREAM_ORIGIN_URL": stub.baseURL + "/api"]) { gateway in
            let plain = try await gateway.get("/doc")
            #expect(plain.status == 200 && plain.headers["Content-Encoding"] == nil && plain.body == Self.document)
            let inflated = try await Self.inflated("/doc", port: gateway.port)
            #expect(inflated.body == Self.document)
            #expect(try await Self.head("/doc", port: gateway.port)["Content-Encoding"] == "gzip")
        }
    }
}
