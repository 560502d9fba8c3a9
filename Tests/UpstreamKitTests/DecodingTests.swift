import Foundation
import HTTPBasics
import Testing
@testable import UpstreamKit

@Suite struct DecodingTests {
    @Test func decodesTheScenarioBodies() throws {
        let shuffle = try Request<Shuffle>(path: Path("new", "shuffle", trailingSlash: true)).value(from: json(Bodies.shuffle))
        #expect(shuffle == Shuffle(success: true, deck_id: "3p40paa87x90", shuffled: true, remaining: 52))
        let draw = try Request<Draw>(path: Path("x", "draw", trailingSlash: true)).value(from: json(Bodies.draw))
        #expect(draw.cards.map(\.code) == ["6H"])
        #expect(draw.remaining == 51)
        let luke = try Request<Person>(path: Path("people", "1", trailingSlash: true)).value(from: json(Bodies.luke))
        #expect(luke.homeworld == "https://swapi.dev/api/planets/1/")
        #expect(luke.starships.count == 2)
        let planet = try Request<Planet>(link: luke.homeworld).value(from: json(Bodies.tatooine))
        #expect(planet.population == "200000")
        let ship = try Request<Starship>(link: luke.starships[0]).value(from: json(Bodies.xwing))
        #expect(ship.starship_class == "Starfighter")
        let menu = try Request<[Dish]>(path: Path("menu_response.json")).value(from: json(Bodies.menu))
        #expect(menu.first?.price == 4.5)
        let dish = try Request<Dish>(path: Path("dish_of_the_day.json")).value(from: json(Bodies.dishOfTheDay))
        #expect(dish == Dish(name: "Spaghetti Carbonara", category: "pastas", spicy: false, price: 7.5))
    }

    @Test func aResponseCarriesTheValueWithTheAnswersStatusAndFields() async throws {
        let swapi = Upstream(
            name: "swapi",
            baseURL: try Bases.swapi,
            settings: UpstreamSettings(retryPolicy: .never),
            transport: ClosureTransport { _ throws(UpstreamError) in
                json(Bodies.tatooine, status: HTTPStatus(code: 203), headers: ["Content-Type": "application/json", "ETag": "\"7\""])
            })
        let answer = try await swapi.response(to: Request<Planet>(path: Path("planets", "1", trailingSlash: true)))
        #expect(answer.value.population == "200000")
        #expect(answer.status.code == 203)
        #expect(answer.headers["etag"] == "\"7\"")
    }

    @Test func failureStatusesBecomeStatusErrors() throws {
        let request = Request<Shuffle>(path: try Path("nope", "draw", trailingSlash: true))
        #expect(throws: UpstreamError.status(.notFound, retryAfter: nil)) {
            try request.value(from: json(#"{"success":false,"error":"Deck ID does not exist."}"#, status: .notFound))
        }
        #expect(throws: UpstreamError.status(.tooManyRequests, retryAfter: .seconds(7))) {
            try request.value(from: json("", status: .tooManyRequests, headers: ["Retry-After": "7"]))
        }
    }

    @Test func invalidJSONIsADecodingFailureWithoutTheBody() throws {
        let request = Request<Shuffle>(path: try Path("new"))
        let error = #expect(throws: UpstreamError.self) { try request.value(from: json(#"{"secret-body":"#)) }
        guard case .decodingFailed(let reason) = error else {
            Issue.record("expected decodingFailed")
            return
        }
        #expect(!reason.contains("secret-body"))
    }

    @Test func voidAndRawRequests() throws {
        try Request<Void>(path: Path("ping")).value(from: json("not json"))
        let raw = try Request<Response>(path: Path("file")).value(from: Response(status: .ok, headers: ["X-A": "1"], body: [1, 2, 3]))
        #expect(raw.body == [1, 2, 3])
        #expect(raw.headers["x-a"] == "1")
    }

    @Test func customDecodeClosure() throws {
        let request = Request<Int>(.get, .path(try Path("count"))) { response throws(UpstreamError) in response.body.count }
        #expect(try request.value(from: json("12345")) == 5)
    }

    @Test func retryAfterAcceptsSecondsAndDates() {
        #expect(RetryAfter.delay("120") == .seconds(120))
        #expect(RetryAfter.delay(" 0 ") == .zero)
        #expect(RetryAfter.delay("soon") == nil)
        #expect(RetryAfter.delay(nil) == nil)
        #expect((RetryAfter.delay("99999999999999999999999") ?? .zero) > .seconds(86_400))
        let now = Date(timeIntervalSince1970: 784_111_777)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:47 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:27 GMT", now: now) == .zero)
    }
}
