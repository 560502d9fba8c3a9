import HTTPBasics
import Testing
@testable import HTTP1Server

@Suite("Router")
struct RouterTests {
    struct Throttled: HTTPResponseError {
        var status: HTTPStatus { .serviceUnavailable }
        var detail: String { "upstream deck is rate limited" }
        var headers: HTTPHeaders { ["Retry-After": "3"] }
    }

    struct Secret: Error, CustomStringConvertible {
        var description: String { "password=hunter2" }
    }

    private func echo(_ label: String) -> Router<Void>.Handler {
        { request, context, _ in
            var parts = [label]
            if let id = context.parameters["id"] { parts.append("id=\(id)") }
            if let name = context.parameters["name"] { parts.append("name=\(name)") }
            return HTTPResponse(status: .ok, body: Array(parts.joined(separator: " ").utf8))
        }
    }

    private var router: Router<Void> {
        var router = Router<Void>()
        router.get("/", echo("root"))
        router.get("/v1/menu", echo("menu"))
        router.get("/v1/people/:id", echo("person"))
        router.get("/v1/people/me", echo("me"))
        router.get("/v1/people/:id/starships", echo("starships"))
        router.get("/v1/people/me/friends", echo("my friends"))
        router.post("/v1/people", echo("create"))
        router.add(.delete, "/v1/people/:id", echo("delete"))
        router.get("/files/:name", echo("file"))
        router.get("/v1/deal") { _, context, _ in
            let players = context.query["players"] ?? "-"
            let all = context.query.values(named: "tag").joined(separator: ",")
            return HTTPResponse(status: .ok, body: Array("\(players)|\(all)".utf8))
        }
        router.get("/throttled") { _, _, _ in throw Throttled() }
        router.get("/broken") { _, _, _ in throw Secret() }
        return router
    }

    private func send(_ method: HTTPMethod, _ target: String) async -> (status: Int, body: String, headers: HTTPHeaders) {
        let response = await router.respond(to: HTTPRequest(method: method, target: target))
        return (response.status.code, String(decoding: response.body, as: UTF8.self), response.headers)
    }

    @Test(arguments: [
        ("/", "root"),
        ("/v1/menu", "menu"),
        ("/v1/people/1", "person id=1"),
        ("/v1/people/me", "me"),
        ("/v1/people/1/starships", "starships id=1"),
        ("/v1/people/me/starships", "starships id=me"),
        ("/v1/people/me/friends", "my friends"),
        ("/v1/people/caf%C3%A9", "person id=café"),
        ("/files/a%20b", "file name=a b"),
        ("/files/a+b", "file name=a+b"),
        ("/files/...", "file name=..."),
        ("/v1/deal?players=3&tag=a&tag=b+c&tag=%41", "3|a,b c,A"),
        ("/v1/deal?flag&players=", "|"),
        ("/v1/deal", "-|"),
    ])
    func matches(target: String, expected: String) async {
        let response = await send(.get, target)
        #expect(response.status == 200)
        #expect(response.body == expected)
    }

    @Test(arguments: ["/nowhere", "/v1", "/v1/menu/", "/v1/menu/x", "/v1/people/1/planets", "*", "", "v1/menu", "//v1/menu"])
    func answersUnknownPathsWith404(target: String) async {
        let response = await send(.get, target)
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
    }

    @Test func answersOtherMethodsWith405AndAllow() async {
        let response = await send(.put, "/v1/people/7")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, HEAD, DELETE")
        #expect(response.body.contains(#""status":405"#))
        #expect(response.body.contains(#""instance":"/v1/people/7""#))
        #expect(await send(.get, "/v1/people").headers["Allow"] == "POST")
        #expect(await send(.delete, "/v1/people/7").body == "delete id=7")
    }

    @Test func answersConnectAndOptionsAsteriskWith405AndEveryMethodServed() async {
        for (method, target) in [(HTTPMethod.connect, "example.com:443"), (.connect, "/nowhere"), (.options, "*")] {
            let response = await send(method, target)
            #expect(response.status == 405)
            #expect(response.headers["Allow"] == "GET, HEAD, POST, DELETE")
            #expect(!response.body.contains("instance"))
        }
        #expect(await send(.connect, "/v1/people/7").headers["Allow"] == "GET, HEAD, DELETE")
        #expect(await send(.options, "/nowhere").status == 404)
    }

    @Test func answersHeadWithTheGetHandler() async {
        let response = await send(.head, "/v1/people/1")
        #expect(response.status == 200)
        #expect(response.body == "person id=1")
        #expect(await send(.head, "/v1/people").status == 405)
    }

    @Test(arguments: [
        "/v1/people/..", "/v1/people/.", "/v1/people/%2e%2e", "/v1/people/%2E", "/v1/people/%2e%2E",
        "/v1/people/a%2Fb", "/v1/people/a%2fb", "/v1/people/a%5Cb", "/v1/people/a%3Fb", "/v1/people/a%23b",
        "/v1/people/%00", "/v1/people/a%00b", "/v1/people/%0A", "/v1/people/%7F",
        "/v1/people/%ZZ", "/v1/people/%", "/v1/people/%4", "/v1/people/%C3%28", "/v1/people/%FF", "/v1/people/%C0%AF",
        "/v1/people/", "/v1/people//starships", "/v1/deal?players=%ZZ", "/v1/deal?%C3%28=1", "/v1/deal?a=%00",
    ])
    func refusesUnsafeParameters(target: String) async {
        let response = await send(.get, target)
        #expect(response.status == 400)
        #expect(response.headers["Content-Type"] == "application/problem+json")
    }

    @Test func turnsResponseErrorsIntoProblems() async {
        let response = await send(.get, "/throttled")
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "3")
        #expect(response.body == #"{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"upstream deck is rate limited","instance":"/throttled"}"#)
    }

    @Test func hidesOtherErrorsBehind500() async {
        let response = await send(.get, "/broken")
        #expect(response.status == 500)
        #expect(!response.body.contains("hunter2"))
        #expect(response.body.contains(#""title":"Internal Server Error""#))
    }

    @Test func listsItsRoutes() {
        let routes = router.routes
        #expect(routes.count == 12)
        #expect(routes[2] == Route(method: .get, pattern: "/v1/people/:id"))
        #expect(routes[2].parameterNames == ["id"])
    }

    @Test func replacesARepeatedRegistration() async {
        var router = Router<Void>()
        router.get("/a", echo("first"))
        router.get("/a", echo("second"))
        let response = await router.respond(to: HTTPRequest(method: .get, target: "/a"))
        #expect(String(decoding: response.body, as: UTF8.self) == "second")
        #expect(router.routes.count == 1)
    }

    /// A router with exact routes under and beside prefix routes, each prefix handler echoing
    /// its prefix, the remainder and the raw query.
    private var prefixRouter: Router<Void> {
        var router = Router<Void>()
        router.get("/healthz", echo("health"))
        router.get("/ct/special", echo("special"))
        router.get("/ct/items/:id", echo("item"))
        for prefix in ["/ct", "/ct/v2/deep", "/other"] {
            router.addPrefix(prefix) { request, match, _ in
                let text = "\(request.method) \(match.prefix) [\(match.remainder)] \(request.query ?? "-")"
                return HTTPResponse(status: .ok, body: Array(text.utf8))
            }
        }
        return router
    }

    private func sendToPrefixes(_ method: HTTPMethod, _ target: String) async -> (status: Int, body: String) {
        let response = await prefixRouter.respond(to: HTTPRequest(method: method, target: target))
        return (response.status.code, String(decoding: response.body, as: UTF8.self))
    }

    @Test(arguments: [
        (HTTPMethod.get, "/ct", "GET /ct [] -"),
        (.get, "/ct/", "GET /ct [/] -"),
        (.post, "/ct/a/b?x=1&y=%zz", "POST /ct [/a/b] x=1&y=%zz"),
        (.delete, "/ct/a%2Fb/..", "DELETE /ct [/a%2Fb/..] -"),
        (.head, "/ct/a", "HEAD /ct [/a] -"),
        (HTTPMethod(rawValue: "PROPFIND"), "/ct/a", "PROPFIND /ct [/a] -"),
        (.get, "/ct/v2", "GET /ct [/v2] -"),
        (.get, "/ct/v2/deep", "GET /ct/v2/deep [] -"),
        (.put, "/ct/v2/deep/er?q", "PUT /ct/v2/deep [/er] q"),
        (.get, "/ct/v2/deeper", "GET /ct [/v2/deeper] -"),
        (.get, "/ct/special/more", "GET /ct [/special/more] -"),
        (.post, "/ct/special", "POST /ct [/special] -"),
        (.get, "/ct/items/1/parts", "GET /ct [/items/1/parts] -"),
        (.get, "/other//x", "GET /other [//x] -"),
    ])
    func prefixRoutesServeEveryMethodAtAndBelowTheLongestPrefix(method: HTTPMethod, target: String, expected: String) async {
        let response = await sendToPrefixes(method, target)
        #expect(response.status == 200)
        #expect(response.body == expected)
    }

    @Test func exactRoutesWinOverPrefixesForTheirMethods() async {
        #expect(await sendToPrefixes(.get, "/ct/special").body == "special")
        #expect(await sendToPrefixes(.head, "/ct/special").body == "special")
        #expect(await sendToPrefixes(.get, "/ct/items/7").body == "item id=7")
        #expect(await sendToPrefixes(.get, "/ct/items/%2e%2e").status == 400)
        #expect(await sendToPrefixes(.get, "/healthz").body == "health")
        #expect(await sendToPrefixes(.post, "/healthz").status == 405)
    }

    @Test(arguments: ["/ctx", "/c", "/", "/ct%2Fa", "/CT", "/otherwise", "*"])
    func pathsBesidePrefixesAreNotServedByThem(target: String) async {
        let method: HTTPMethod = target == "*" ? .options : .get
        #expect(await sendToPrefixes(method, target).status == (target == "*" ? 405 : 404))
    }

    @Test func connectIsNeverServedByAPrefix() async {
        let response = await prefixRouter.respond(to: HTTPRequest(method: .connect, target: "/ct/a"))
        #expect(response.status.code == 405)
        #expect(response.headers["Allow"] == "GET, HEAD")
        #expect(await prefixRouter.respond(to: HTTPRequest(method: .connect, target: "/ct/special")).status.code == 405)
    }

    @Test func theRootPrefixServesWhatNoOtherRouteServes() async {
        var router = Router<Void>()
        router.get("/healthz", echo("health"))
        router.addPrefix("/") { _, match, _ in HTTPResponse(status: .ok, body: Array("root [\(match.remainder)]".utf8)) }
        router.addPrefix("/a") { _, match, _ in HTTPResponse(status: .ok, body: Array("a [\(match.remainder)]".utf8)) }
        router.addPrefix("/a") { _, match, _ in HTTPResponse(status: .ok, body: Array("a again [\(match.remainder)]".utf8)) }
        for (target, expected) in [("/", "root [/]"), ("/x/y", "root [/x/y]"), ("/healthz", "health"), ("/a/b", "a again [/b]"), ("/ab", "root [/ab]")] {
            let response = await router.respond(to: HTTPRequest(method: .get, target: target))
            #expect(String(decoding: response.body, as: UTF8.self) == expected)
        }
    }

    @Test func prefixHandlerErrorsBecomeProblems() async {
        var router = Router<Void>()
        router.addPrefix("/throttled") { _, _, _ in throw Throttled() }
        router.addPrefix("/broken") { _, _, _ in throw Secret() }
        let throttled = await router.respond(to: HTTPRequest(method: .get, target: "/throttled/x"))
        #expect(throttled.status.code == 503)
        #expect(throttled.headers["Retry-After"] == "3")
        #expect(String(decoding: throttled.body, as: UTF8.self).contains(#""instance":"/throttled/x""#))
        let broken = await router.respond(to: HTTPRequest(method: .get, target: "/broken"))
        #expect(broken.status.code == 500)
        #expect(!String(decoding: broken.body, as: UTF8.self).contains("hunter2"))
    }

    @Test("allowedMethods(at:) lists an exact route's methods, HEAD after GET, then a prefix's; none for an unknown path")
    func allowedMethodsAtAPath() {
        #expect(router.allowedMethods(at: "/v1/people/7") == [.get, .head, .delete])
        #expect(router.allowedMethods(at: "/v1/people") == [.post])
        #expect(router.allowedMethods(at: "/nowhere").isEmpty)
        #expect(prefixRouter.allowedMethods(at: "/ct/items/3") == [.get, .head, .post, .put, .patch, .delete, .options])
        #expect(prefixRouter.allowedMethods(at: "/ct/a/b") == PrefixMatch.listedMethods)
        #expect(prefixRouter.allowedMethods(at: "/healthz") == [.get, .head])
        #expect(prefixRouter.allowedMethods(at: "/ctx").isEmpty)
    }
}
