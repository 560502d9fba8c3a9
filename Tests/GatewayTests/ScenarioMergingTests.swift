import Testing

@testable import Gateway
@testable import ReferenceScenario

@Suite("Merging and trimming upstream values")
struct ScenarioMergingTests {
    @Test("menu sections keep the order in which categories first appear, dishes in menu order")
    func menuSections() {
        let items = [
            MenuItem(name: "Water", category: "drinks", spicy: false, price: 1),
            MenuItem(name: "Penne", category: "pastas", spicy: true, price: 4.5),
            MenuItem(name: "Wine", category: "drinks", spicy: false, price: 4.5),
        ]
        let sections = MenuSection.grouping(items)
        #expect(sections.map(\.category) == ["drinks", "pastas"])
        #expect(sections[0].items == [Dish(name: "Water", price: 1, spicy: false), Dish(name: "Wine", price: 4.5, spicy: false)])
    }

    @Test("past the scanned sections, categories are still grouped, in order of first appearance")
    func manyMenuSections() {
        let categoryCount = MenuSection.scannedSectionLimit * 3
        let items = (0..<categoryCount * 2).map { index in
            MenuItem(name: "dish \(index)", category: "category \(index % categoryCount)", spicy: false, price: 1)
        }
        let sections = MenuSection.grouping(items)
        #expect(sections.map(\.category) == (0..<categoryCount).map { "category \($0)" })
        #expect(sections.allSatisfy { $0.items.count == 2 })
        #expect(sections.last?.items.map(\.name) == ["dish \(categoryCount - 1)", "dish \(categoryCount * 2 - 1)"])
    }

    @Test("a failed dish of the day is null and the menu still comes")
    func menuWithoutDish() throws {
        let response = MenuResponse(
            items: [MenuItem(name: "Water", category: "drinks", spicy: false, price: 1)], dishOfTheDay: nil)
        let json = String(decoding: try ResponseEncoding.encode(response, degraded: ["dishOfTheDay"]), as: UTF8.self)
        #expect(json == #"{"dishOfTheDay":null,"sections":[{"category":"drinks","items":[{"name":"Water","price":1,"spicy":false}]}],"degraded":["dishOfTheDay"]}"#)
    }

    @Test("a person keeps only what the client needs, starships in the person's order")
    func personMerge() throws {
        let person = SwapiPerson(name: "Luke Skywalker", birthYear: "19BBY", homeworld: "x", starships: ["a", "b"])
        let response = PersonResponse(
            id: 1, person: person, homeworld: SwapiPlanet(name: "Tatooine", climate: "arid", population: "200000"),
            starships: [
                SwapiStarship(name: "X-wing", model: "T-65 X-wing", starshipClass: "Starfighter"),
                SwapiStarship(name: "Imperial shuttle", model: "Lambda-class T-4a shuttle", starshipClass: "Armed government transport"),
            ])
        let json = String(decoding: try ResponseEncoding.encode(response, degraded: []), as: UTF8.self)
        #expect(
            json
                == #"{"id":1,"name":"Luke Skywalker","birthYear":"19BBY","homeworld":{"name":"Tatooine","climate":"arid","population":200000},"starships":[{"name":"X-wing","model":"T-65 X-wing","class":"Starfighter"},{"name":"Imperial shuttle","model":"Lambda-class T-4a shuttle","class":"Armed government transport"}],"degraded":[]}"#
        )
    }

    @Test("failed parts are null, not missing")
    func personWithFailedParts() throws {
        let person = SwapiPerson(name: "Yoda", birthYear: "896BBY", homeworld: nil, starships: [])
        let response = PersonResponse(id: 20, person: person, homeworld: nil, starships: nil)
        let json = String(decoding: try ResponseEncoding.encode(response, degraded: ["homeworld", "starships"]), as: UTF8.self)
        #expect(json == #"{"id":20,"name":"Yoda","birthYear":"896BBY","homeworld":null,"starships":null,"degraded":["homeworld","starships"]}"#)
    }

    @Test(
        "population is a number or null",
        arguments: [
            ("200000", Population.whole(200_000)), ("1000000000000", .whole(1_000_000_000_000)), ("unknown", nil), ("n/a", nil),
            ("", nil), ("1,358", nil), ("-5", nil), ("2.5", .fractional(2.5)),
        ] as [(String, Population?)])
    func population(text: String, expected: Population?) {
        #expect(Population(text) == expected)
    }

    @Test("an unknown population is encoded as null")
    func unknownPopulation() throws {
        let homeworld = Homeworld(SwapiPlanet(name: "Hoth", climate: "frozen", population: "unknown"))
        #expect(String(decoding: try ResponseEncoding.encode(homeworld), as: UTF8.self) == #"{"name":"Hoth","climate":"frozen","population":null}"#)
    }

    @Test("cards are dealt round-robin: card i goes to player i mod P")
    func dealRoundRobin() {
        let codes = ["AS", "2S", "3S", "4S", "5S", "6S"]
        let draw = DeckDraw(success: true, cards: codes.map(DeckDraw.Card.init(code:)), remaining: 46)
        let deal = DealResponse(deckId: "abc", draw: draw, players: 3)
        #expect(deal.hands == [["AS", "4S"], ["2S", "5S"], ["3S", "6S"]])
        #expect(deal.remaining == 46)
    }

    @Test("a shoe has enough decks for every card dealt", arguments: [(1, 1), (52, 1), (53, 2), (104, 2), (105, 3)])
    func deckCount(cards: Int, decks: Int) {
        #expect(DealResponse.deckCount(forCards: cards) == decks)
    }

    @Test("only a plain deck id is put into the next request's path")
    func deckIdentifier() {
        #expect(DeckShuffle(success: true, deckID: "3p40paa87x90").hasUsableDeckID)
        #expect(!DeckShuffle(success: true, deckID: "../admin").hasUsableDeckID)
        #expect(!DeckShuffle(success: true, deckID: "").hasUsableDeckID)
        #expect(!DeckShuffle(success: false, deckID: "abc").hasUsableDeckID)
    }

    @Test("declared integer parameters validate against their range and default")
    func integerParameters() throws {
        let players = EndpointParameter.query("players", integerIn: 1...8, default: 2, "hands")
        #expect(try players.integer(from: nil) == 2)
        #expect(try players.integer(from: "8") == 8)
        for bad in ["0", "9", "-1", "+2", "2.0", "", "two", "99999999999999999999"] {
            #expect(throws: GatewayProblem.self) { try players.integer(from: bad) }
        }
        let id = EndpointParameter.path("id", integerIn: 1...100, "id")
        #expect(throws: GatewayProblem(.badRequest, "id is required")) { try id.integer(from: nil) }
    }
}
