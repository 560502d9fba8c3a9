import HTTPBasics
import Testing
@testable import UpstreamKit

/// Which redirects are followed and what the next request is, without a network.
@Suite struct RedirectPolicyTests {
    static let base = try! BaseURL("https://api.example.com/v2")
    static let policy = RedirectPolicy(baseURL: base, maximumRedirects: 5)

    static func request(_ method: HTTPMethod = .get, _ target: String = "/v2/items/1?x=1", body: [UInt8]? = nil) -> TransportRequest {
        TransportRequest(
            method: method, origin: base.origin, target: target,
            headers: ["Authorization": "Bearer t", "Content-Type": "application/json"], body: body)
    }

    static func redirect(_ code: Int, to location: String?) -> Response {
        Response(status: HTTPStatus(code: code), headers: location.map { ["Location": $0] } ?? [:])
    }

    static func next(_ code: Int, to location: String, after request: TransportRequest = request(), soFar: Int = 0) -> TransportRequest? {
        guard case .follow(let next) = policy.step(after: redirect(code, to: location), to: request, redirectsSoFar: soFar) else { return nil }
        return next
    }

    static func refusal(_ code: Int, to location: String?, soFar: Int = 0) -> UpstreamError? {
        guard case .refuse(let error) = policy.step(after: redirect(code, to: location), to: request(), redirectsSoFar: soFar) else { return nil }
        return error
    }

    @Test func onlyTheFiveRedirectStatusesAreRedirects() {
        #expect([301, 302, 303, 307, 308].allSatisfy { RedirectPolicy.isRedirect(HTTPStatus(code: $0)) })
        #expect(![200, 300, 304, 305, 306, 309, 404].contains { RedirectPolicy.isRedirect(HTTPStatus(code: $0)) })
    }

    @Test func anAnswerWithoutLocationOrNotARedirectIsTheAnswer() {
        for response in [Self.redirect(302, to: nil), Self.redirect(302, to: ""), Self.redirect(200, to: "/v2/x"), Self.redirect(304, to: "/v2/x")] {
            guard case .answer = Self.policy.step(after: response, to: Self.request(), redirectsSoFar: 0) else {
                Issue.record("\(response.status.code) should be the answer")
                continue
            }
        }
    }

    @Test func locationsResolveAgainstTheRequestURL() {
        #expect(Self.next(302, to: "/v2/items/2")?.target == "/v2/items/2")
        #expect(Self.next(302, to: "2")?.target == "/v2/items/2")
        #expect(Self.next(302, to: "../people/3?y=2")?.target == "/v2/people/3?y=2")
        #expect(Self.next(302, to: "?page=2")?.target == "/v2/items/1?page=2")
        #expect(Self.next(302, to: "https://API.example.com:443/v2/z#frag")?.target == "/v2/z")
        #expect(Self.next(302, to: "//api.example.com/v2/z")?.target == "/v2/z")
    }

    @Test func theMethodChangesTo303OrAfterAPostOn301And302() {
        let post = Self.request(.post, body: [1, 2])
        for code in [301, 302, 303] {
            let next = Self.next(code, to: "/v2/done", after: post)
            #expect(next?.method == .get && next?.body == nil)
            #expect(next?.headers.contains("Content-Type") == false)
            #expect(next?.headers["Authorization"] == "Bearer t")
        }
        for code in [307, 308] {
            let next = Self.next(code, to: "/v2/done", after: post)
            #expect(next?.method == .post && next?.body == [1, 2] && next?.headers["Content-Type"] == "application/json")
        }
        let put = Self.request(.put, body: [3])
        #expect(Self.next(301, to: "/v2/done", after: put)?.method == .put)
        #expect(Self.next(303, to: "/v2/done", after: put)?.method == .get)
        #expect(Self.next(303, to: "/v2/done", after: Self.request(.head))?.method == .head)
    }

    @Test func targetsOutsideTheBaseURLAreRefusedAndNamedWithoutSecrets() {
        #expect(Self.refusal(302, to: "https://evil.example/v2/x?token=s") == .refusedRedirect(target: "https://evil.example/v2/x"))
        #expect(Self.refusal(302, to: "https://user:pw@api.example.com/v2/x") == .refusedRedirect(target: "https://api.example.com/v2/x"))
        #expect(Self.refusal(302, to: "http://api.example.com/v2/x") == .refusedRedirect(target: "http://api.example.com/v2/x"))
        #expect(Self.refusal(301, to: "/v1/old") == .refusedRedirect(target: "https://api.example.com/v1/old"))
        #expect(Self.refusal(301, to: "../../../etc") == .refusedRedirect(target: "https://api.example.com/etc"))
        #expect(Self.refusal(302, to: "/v2/a b") == .invalidResponse(reason: "redirect to an invalid Location"))
        #expect(RedirectPolicy.displayed("https://h/" + String(repeating: "a", count: 300)).count == 201)
    }

    @Test func theLimitStopsTheNextRedirect() {
        #expect(Self.next(302, to: "/v2/x", soFar: 4) != nil)
        #expect(Self.refusal(302, to: "/v2/x", soFar: 5) == .tooManyRedirects(limit: 5))
    }
}

/// RFC 3986 §5.4's examples of resolving a reference against `http://a/b/c/d;p?q`.
@Suite struct URLReferenceTests {
    @Test(arguments: [
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q"),
        ("g#s", "http://a/b/c/g"), (";x", "http://a/b/c/;x"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"),
        ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"), ("g;x=1/../y", "http://a/b/c/y"), ("g:h", "g:h"), ("HTTPS://a/x", "https://a/x"),
    ])
    func resolves(reference: String, expected: String) {
        #expect(URLReference.resolve(reference, origin: Origin(scheme: "http", host: "a", port: 80), target: "/b/c/d;p?q") == expected)
    }

    @Test func refusesSpacesAndControlCharacters() {
        #expect(URLReference.resolve("/a b", origin: Origin(scheme: "http", host: "a", port: 80), target: "/") == nil)
        #expect(URLReference.resolve("/a\u{7F}", origin: Origin(scheme: "http", host: "a", port: 80), target: "/") == nil)
    }
}
