import Foundation
public import Gateway
import HTTP1Server
import HTTPBasics
public import NetworkRuntime
/// Fixture copies of the three upstreams, served on loopback by our own server so the gateway
/// can be tried, and tested end to end, without the internet.
///
/// Same paths and JSON as the public APIs below three bases: `/deck/api/deck` (with real
/// shuffle and draw state), `/swapi/api` (links point at this server) and `/menu`.
public struct DemoUpstreams: DemoFixtures {
    let server: HTTPServer
    private let task: Task<Void, Never>

    /// Starts serving on 127.0.0.1 at a free port.
    public init() throws(SocketError) {
        let address = "127.0.0.1"
        // The port is known only after binding, but SWAPI links must name it: bind first, then
        // let the routes read the base through a box filled right after.
        let swapiBase = DemoBase()
        server = try HTTPServer(
            configuration: ServerConfiguration(host: address, port: 0, shutdownGracePeriod: .seconds(1)),
            responder: DemoUpstreams.router(swapiBase: swapiBase))
        swapiBase.set("http://\(address):\(server.port)/swapi/api")
        let server = self.server
        task = Task { await server.run() }
    }

    var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// The `UPSTREAM_*_URL` variables that point a gateway at these fixtures.
    public var environment: [String: String] {
        [
            "UPSTREAM_DECK_URL": baseURL + "/deck/api/deck",
            "UPSTREAM_SWAPI_URL": baseURL + "/swapi/api",
            "UPSTREAM_MENU_URL": baseURL + "/menu",
        ]
    }

    /// Stops serving.
    public func shutdown() {
        server.shutdown()
    }

    /// What `gateway --demo` prints: where it listens and three commands to try.
    public func banner(gatewayURL gateway: String) -> String {
        return """
            gateway demo: fixture upstreams on \(baseURL), gateway on \(gateway)
            try:
              curl -s \(gateway)/v1/menu
              curl -s \(gateway)/v1/people/1
              curl -s '\(gateway)/v1/deal?players=3&cards=5'
            """
    }

    static func router(swapiBase: DemoBase) -> Router<Void> {
        var router = Router<Void>()
        let decks = DemoDeckStore()
        let swapi = DemoSwapiDocuments(base: swapiBase)
        router.get("/deck/api/deck/new/shuffle/") { _, context, _ in
            let deckCount = context.query["deck_count"].flatMap(Int.init).map { min(max($0, 1), 20) } ?? 1
            let (id, remaining) = decks.shuffle(deckCount: deckCount)
            return .json(Array(#"{"success":true,"deck_id":"\#(id)","shuffled":true,"remaining":\#(remaining)}"#.utf8))
        }
        router.get("/deck/api/deck/:id/draw/") { _, context, _ in
            let count = context.query["count"].flatMap(Int.init) ?? 1
            guard let id = context.parameters["id"], let (cards, remaining) = decks.draw(from: id, count: count) else {
                return .json(Array(#"{"success":false,"error":"Deck ID does not exist."}"#.utf8), status: .notFound)
            }
            let enough = cards.count == count
            let list = cards.map(\.json).joined(separator: ",")
            var body = #"{"success":\#(enough),"deck_id":"\#(id)","cards":[\#(list)],"remaining":\#(remaining)"#
            if !enough { body += #","error":"Not enough cards remaining to draw \#(count) additional""# }
            return .json(Array((body + "}").utf8))
        }
        router.get("/swapi/api/:kind/:id/") { _, context, _ in
            guard let kind = context.parameters["kind"], let id = context.parameters["id"], let document = swapi.document(kind: kind, id: id) else {
                return .json(Array(#"{"detail":"Not found"}"#.utf8), status: .notFound)
            }
            return .json(document)
        }
        let textPlain: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8"]
        let menu = Array(DemoMenuFixtures.menu.utf8)
        let dishOfTheDay = Array(DemoMenuFixtures.dishOfTheDay.utf8)
        router.get("/menu/menu_response.json") { _, _, _ in HTTPResponse(status: .ok, headers: textPlain, body: menu) }
        router.get("/menu/dish_of_the_day.json") { _, _, _ in HTTPResponse(status: .ok, headers: textPlain, body: dishOfTheDay) }
        return router
    }
}
