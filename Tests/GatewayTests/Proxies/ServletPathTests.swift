import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway

/// Issue #30: a proxy route in front of an origin that resolves paths as servlet containers do
/// (Tomcat: path parameters removed from each segment, then decoded, then normalised) must not
/// let a client leave the upstream's base path with `..;`.
@Suite("Proxy routes: servlet path parameters")
struct ServletPathTests {
    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    static let catalog = GatewayCatalog(upstreams: [origin], endpoints: [], proxies: [ProxyRoute("/tc", upstream: origin, authentication: .none)])

    /// The path a servlet container serves for `raw`: each segment without its `;` parameters,
    /// percent-decoded once, then dot segments resolved.
    static func servletPath(_ raw: String) -> String {
        var resolved: [Substring] = []
        for segment in raw.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let decoded = (segment.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").removingPercentEncoding ?? ""
            switch decoded {
            case ".": continue
            case "..": _ = resolved.popLast()
            default: resolved.append(Substring(decoded))
            }
        }
        return "/" + resolved.joined(separator: "/")
    }

    /// Sends `target` through a gateway, holding a token of its own for the upstream, in front
    /// of a stub that answers as a servlet container whose `/api` application the route proxies
    /// and whose `/admin` application lies outside it; returns the answer and the paths the stub got.
    private static func send(_ target: String) async throws -> (response: TestResponse, received: [String]) {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer(under: "/") { request in
            let served = servletPath(request.path)
            let body = served.hasPrefix("/api/") ? "inside \(served)" : "ADMIN SECRET at \(served)"
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array(body.utf8))
        }
        let environment = ["UPSTREAM_ORIGIN_URL": stub.baseURL + "/api", "UPSTREAM_ORIGIN_BEARER_TOKEN": "gateway-own-secret"]
        let response = try await withGateway(catalog: catalog, environment: environment) { try await $0.get(target) }
        return (response, stub.received.map(\.path))
    }

    @Test("a dot segment with parameters, in any spelling, is a 400 and nothing is sent", arguments: [
        "/tc/..;/admin/secret", "/tc/..;x=1/admin/secret", "/tc/%2e%2e;/admin/secret", "/tc/.%2E;jsessionid=1/admin/secret",
        "/tc/.;/x", "/tc/a/..;/..;/admin/secret", "/tc/%2E%2E%3B/admin/secret", "/tc/..%3bx/admin", "/tc/..;%2F..;/admin",
        "/tc/..;\\admin", "/tc/a%5C..;%5Cb",
    ])
    func refused(target: String) async throws {
        let (response, received) = try await Self.send(target)
        #expect(response.status == 400)
        #expect(response.text.contains("the path holds a '.' or '..' segment"))
        #expect(received.isEmpty)
    }

    @Test("parameters and dots that name no dot segment pass as sent, and stay inside the base", arguments: [
        "/tc/a;v=1/b", "/tc/...;x/b", "/tc/.a;/b", "/tc/a/;../b", "/tc/%252e%252e;/b", "/tc/a..;/b", "/tc/;/b",
    ])
    func passed(target: String) async throws {
        let (response, received) = try await Self.send(target)
        #expect(response.status == 200)
        #expect(response.text.hasPrefix("inside /api/"))
        #expect(received == ["/api" + target.dropFirst(3)])
    }
}
