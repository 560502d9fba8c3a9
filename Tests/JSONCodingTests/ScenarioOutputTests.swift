import Foundation
import JSONCoding
import Testing

/// The combined responses of the scenario, byte for byte.
@Suite struct ScenarioOutputTests {
    let encoder = JSONByteEncoder()

    static let carbonara = MenuItem(name: "Spaghetti Carbonara", price: 7.5, spicy: false)
    static let pastas = MenuSection(category: "pastas", items: [
        MenuItem(name: "Penne all'Arrabbiata", price: 4.5, spicy: true),
        MenuItem(name: "Spaghetti Aglio, Olio, e Peperoncino", price: 8, spicy: true),
    ])
    static let desserts = MenuSection(category: "desserts", items: [MenuItem(name: "Tiramisù", price: 6, spicy: false)])

    @Test func encodesMenuResponse() throws {
        let response = MenuResponse(dishOfTheDay: Self.carbonara, sections: [Self.pastas, Self.desserts], degraded: [])
        let expected = #"{"dishOfTheDay":{"name":"Spaghetti Carbonara","price":7.5,"spicy":false},"sections":[{"category":"pastas","items":[{"name":"Penne all'Arrabbiata","price":4.5,"spicy":true},{"name":"Spaghetti Aglio, Olio, e Peperoncino","price":8,"spicy":true}]},{"category":"desserts","items":[{"name":"Tiramisù","price":6,"spicy":false}]}],"degraded":[]}"#
        #expect(try encoder.encode(response) == expected.bytes)
    }

    @Test func encodesDegradedMenuWithExplicitNull() throws {
        let response = MenuResponse(dishOfTheDay: nil, sections: [Self.desserts], degraded: ["dishOfTheDay"])
        let expected = #"{"dishOfTheDay":null,"sections":[{"category":"desserts","items":[{"name":"Tiramisù","price":6,"spicy":false}]}],"degraded":["dishOfTheDay"]}"#
        #expect(try encoder.encode(response) == expected.bytes)
    }

    @Test func encodesPeopleResponse() throws {
        let response = PeopleResponse(
            id: 1,
            name: "Luke Skywalker",
            birthYear: "19BBY",
            homeworld: .init(name: "Tatooine", climate: "arid", population: 200_000),
            starships: [
                .init(name: "X-wing", model: "T-65 X-wing", shipClass: "Starfighter"),
                .init(name: "Imperial shuttle", model: "Lambda-class T-4a shuttle", shipClass: "Armed government transport"),
            ],
            degraded: []
        )
        let expected = #"{"id":1,"name":"Luke Skywalker","birthYear":"19BBY","homeworld":{"name":"Tatooine","climate":"arid","population":200000},"starships":[{"name":"X-wing","model":"T-65 X-wing","class":"Starfighter"},{"name":"Imperial shuttle","model":"Lambda-class T-4a shuttle","class":"Armed government transport"}],"degraded":[]}"#
        #expect(try encoder.encode(response) == expected.bytes)
    }

    @Test func encodesDegradedPeopleResponse() throws {
        let response = PeopleResponse(
            id: 1,
            name: "Luke Skywalker",
            birthYear: "19BBY",
            homeworld: .init(name: "Tatooine", climate: "arid", population: nil),
            starships: nil,
            degraded: ["starships"]
        )
        let expected = #"{"id":1,"name":"Luke Skywalker","birthYear":"19BBY","homeworld":{"name":"Tatooine","climate":"arid","population":null},"starships":null,"degraded":["starships"]}"#
        #expect(try encoder.encode(response) == expected.bytes)
    }

    @Test func encodesDealResponse() throws {
        let response = DealResponse(deckId: "3p40paa87x90", hands: [["6H", "KS"], ["2C", "AD"]], remaining: 48)
        let expected = #"{"deckId":"3p40paa87x90","hands":[["6H","KS"],["2C","AD"]],"remaining":48}"#
        #expect(try encoder.encode(response) == expected.bytes)
    }

    @Test func encodesProblemDetailsWithoutEscapingSlashes() throws {
        let problem = Problem(type: "about:blank", title: "Bad Gateway", status: 502, detail: "upstream swapi answered 503", instance: "/v1/people/1")
        let expected = #"{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"upstream swapi answered 503","instance":"/v1/people/1"}"#
        #expect(try encoder.encode(problem) == expected.bytes)
    }
}
