import HTTP1Server
import HTTPBasics

/// The router with the gateway's route table: matching, path parameter decoding, the query,
/// and the call into a handler that answers at once; and the same table with proxy prefixes.
enum RouterBenchmarks {
    static var all: [Benchmark] {
        let router = gatewayShapedRouter()
        var proxying = router
        for prefix in ["/ct", "/ct/v2", "/files"] {
            proxying.addPrefix(prefix) { _, match, _ in
                consume(match.remainder)
                return HTTPResponse(status: .ok)
            }
        }
        return [
            route("router/literal route (/v1/menu)", router, HTTPRequest(method: .get, target: "/v1/menu")),
            route("router/parameter route (/v1/people/1)", router, HTTPRequest(method: .get, target: "/v1/people/1")),
            route("router/route with query (/v1/deal?players=4&cards=5)", router,
                  HTTPRequest(method: .get, target: "/v1/deal?players=4&cards=5")),
            route("router/unknown path (404 problem+json)", router, HTTPRequest(method: .get, target: "/v1/nothing/here")),
            route("router/prefix route (/ct/a/b?x=1, three prefixes)", proxying, HTTPRequest(method: .post, target: "/ct/a/b?x=1")),
        ]
    }

    private static func route(_ name: String, _ router: Router<Void>, _ request: HTTPRequest) -> Benchmark {
        Benchmark(name) { iterations in
            for _ in 0..<iterations {
                consume(await router.respond(to: request))
            }
        }
    }

    /// The paths `gateway` serves, each answered by a handler that reads its inputs.
    private static func gatewayShapedRouter() -> Router<Void> {
        let answer = HTTPResponse.json(Array("{}".utf8))
        var router = Router<Void>()
        for path in ["/v1/menu", "/healthz", "/readyz", "/metrics", "/", "/openapi.json"] {
            router.get(path) { _, _, _ in answer }
        }
        router.get("/v1/people/:id") { _, context, _ in
            consume(context.parameters["id"])
            return answer
        }
        router.get("/v1/deal") { _, context, _ in
            consume(context.query["players"])
            consume(context.query["cards"])
            return answer
        }
        return router
    }
}
