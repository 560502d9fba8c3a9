import Foundation
import GatewayTesting
import HTTP1ClientTransport
import HTTP1Server
import HTTPBasics
import Synchronization
import Testing

@testable import UpstreamKit

/// Redirects followed by an `Upstream` over the pooled client, against our own server on
/// 127.0.0.1: each status, the limit, a loop, a refused target and an answer without `Location`.
@Suite struct RedirectsOverSocketsTests {
    /// Answers `/base/to/{code}?l={location}` with that redirect, `/base/chain/{n}` with a chain of
    /// n redirects, `/base/loop` with a redirect to itself, `/base/bare` with a 302 without a
    /// `Location` and anything else with what it received; keeps every request it gets.
    final class RedirectingServer: HTTPResponder {
        let received = Mutex<[HTTPRequest]>([])

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            received.withLock { $0.append(request) }
            let segments = request.path.split(separator: "/").map(String.init)
            switch (segments.dropFirst().first, segments.count) {
            case ("to", 3):
                return Self.redirect(Int(segments[2]) ?? 500, to: request.query?.dropFirst(2).removingPercentEncoding ?? "")
            case ("chain", 3):
                let remaining = Int(segments[2]) ?? 0
                return remaining == 0 ? Self.echo(request) : Self.redirect(302, to: "/base/chain/\(remaining - 1)")
            case ("loop", _):
                return Self.redirect(307, to: "loop")
            case ("bare", _):
                return HTTPResponse(status: HTTPStatus(code: 302), body: Array("moved".utf8))
            default:
                return Self.echo(request)
            }
        }

        static func redirect(_ code: Int, to location: String) -> HTTPResponse {
             HTTPResponse(status: HTTPStatus(code: code), headers: ["Location": location], body: Array("see there".utf8))
        }

        static func echo(_ request: HTTPRequest) -> HTTPResponse {
            HTTPResponse(status: .ok, headers: [
                "X-Method": request.method.rawValue, "X-Target": request.target,
                "X-Authorization": request.headers["Authorization"] ?? "", "X-Content-Type": request.headers["Content-Type"] ?? "",
            ], body: request.body)
        }

        var paths: [String] { received.withLock { $0.map(\.path) } }
    }

    /// Runs `body` with an upstream at `/base` on a fresh server, holding a bearer token.
    static func serve(maximumRedirects: Int = 5, _ body: (Upstream, RedirectingServer, Int) async throws -> Void) async throws {
        let origin = RedirectingServer()
        let server = try StubUpstream(tls: nil, fallback: origin)
        defer { server.shutdown() }
        let settings = UpstreamSettings(
            retryPolicy: RetryPolicy(maximumAttempts: 1), maximumRedirects: maximumRedirects, actions: [try BearerToken("secret")])
        let upstream = Upstream(
            name: "bin", baseURL: try BaseURL("http://127.0.0.1:\(server.port)/base"), settings: settings, transport: PooledTransport())
        try await body(upstream, origin, server.port)
    }

    static func exchange(
        _ upstream: Upstream, _ method: HTTPMethod = .get, _ segments: String..., location: String? = nil, body: [UInt8]? = nil
    ) async throws -> Response {
        var headers: HTTPHeaders = [:]
        if body != nil { headers.add("Content-Type", "text/plain") }
        let query = location.map { [QueryItem("l", $0)] } ?? []
        return try await upstream.exchange(Request<Response>(method, path: try Path(segments: segments), query: query, headers: headers, body: body, requiresAuthentication: true))
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func eachRedirectStatusIsFollowedWithTheTokenAndTheRightMethod(code: Int) async throws {
        try await Self.serve { upstream, origin, _ in
            let got = try await Self.exchange(upstream, .get, "to", String(code), location: "../done?q=1")
            #expect(got.status == .ok && got.redirects == 1)
            #expect(got.headers["X-Target"] == "/base/done?q=1")
            #expect(got.headers["X-Authorization"] == "Bearer secret")

            let posted = try await Self.exchange(upstream, .post, "to", String(code), location: "/base/done", body: Array("hi".utf8))
            let keeps = code == 307 || code == 308
            #expect(posted.headers["X-Method"] == (keeps ? "POST" : "GET"))
            #expect(posted.body == (keeps ? Array("hi".utf8) : []))
            #expect(posted.headers["X-Content-Type"] == (keeps ? "text/plain" : ""))
            #expect(origin.paths.count == 4)
        }
    }

    @Test func aChainUpToTheLimitIsFollowedAndOneMoreFails() async throws {
        try await Self.serve(maximumRedirects: 3) { upstream, origin, _ in
            let got = try await Self.exchange(upstream, .get, "chain", "3")
            #expect(got.status == .ok && got.redirects == 3)
            #expect(origin.paths == ["/base/chain/3", "/base/chain/2", "/base/chain/1", "/base/chain/0"])
            await #expect(throws: UpstreamFailure(upstream: "bin", error: .tooManyRedirects(limit: 3))) {
                try await Self.exchange(upstream, .get, "chain", "4")
            }
            #expect(origin.paths.count == 8)
        }
    }

    @Test func aLoopEndsAtTheLimit() async throws {
        try await Self.serve { upstream, origin, _ in
            await #expect(throws: UpstreamFailure(upstream: "bin", error: .tooManyRedirects(limit: 5))) {
                try await upstream.send(Request<Void>(path: try Path("loop")))
            }
            #expect(origin.paths == Array(repeating: "/base/loop", count: 6))
        }
    }

    @Test func aTargetOutsideTheBaseURLIsRefusedWithNoRequestSent() async throws {
        try await Self.serve { upstream, origin, port in
            for (location, named) in [
                ("../../outside?token=s", "http://127.0.0.1:\(port)/outside"),
                ("http://user:pw@127.0.0.1:\(port)/base/x", "http://127.0.0.1:\(port)/base/x"),
                ("http://localhost:\(port)/base/x", "http://localhost:\(port)/base/x"),
            ] {
                let error = await #expect(throws: UpstreamFailure.self) {
                    try await Self.exchange(upstream, .get, "to", "302", location: location)
                }
                guard case .refusedRedirect(let target) = error?.error else {
                    Issue.record("expected a refused redirect, got \(String(describing: error))")
                    continue
                }
                #expect(target == named)
                #expect(!target.contains("pw") && !target.contains("token"))
            }
            #expect(origin.paths == Array(repeating: "/base/to/302", count: 3))
        }
    }

    @Test func aRedirectWithoutLocationIsTheAnswer() async throws {
        try await Self.serve { upstream, _, _ in
            let got = try await Self.exchange(upstream, .get, "bare")
            #expect(got.status.code == 302 && got.body == Array("moved".utf8) && got.redirects == 0)
        }
    }

    @Test func noRedirectIsFollowedWhenTheLimitIsZero() async throws {
        try await Self.serve(maximumRedirects: 0) { upstream, origin, _ in
            let got = try await Self.exchange(upstream, .get, "to", "301", location: "/base/done")
            #expect(got.status.code == 301 && got.headers["Location"] == "/base/done")
            #expect(origin.paths.count == 1)
        }
    }
}
