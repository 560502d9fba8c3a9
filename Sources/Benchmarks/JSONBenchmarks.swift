import Foundation
import JSONCoding

/// JSONCoding against Foundation on the scenario's bodies: decoding each upstream answer, and
/// each endpoint's whole JSON work (decode every upstream body, trim, encode the response).
enum JSONBenchmarks {
    typealias Models = ScenarioModels

    static var all: [Benchmark] {
        let decoder = JSONByteDecoder()
        let encoder = JSONByteEncoder()
        let foundationDecoder = JSONDecoder()
        let foundationEncoder = JSONEncoder()
        return [
            .repeating("json/decode menu, 11 items (JSONCoding)") {
                consume(try decoder.decode([Models.MenuItem].self, from: ScenarioPayloads.menu))
            },
            .repeating("json/decode menu, 11 items (Foundation)") {
                consume(try foundationDecoder.decode([Models.MenuItem].self, from: Data(ScenarioPayloads.menu)))
            },
            .repeating("json/decode person (JSONCoding)") {
                consume(try decoder.decode(Models.SwapiPerson.self, from: ScenarioPayloads.person))
            },
            .repeating("json/decode person (Foundation)") {
                consume(try foundationDecoder.decode(Models.SwapiPerson.self, from: Data(ScenarioPayloads.person)))
            },
            .repeating("json/decode deck draw, 10 cards (JSONCoding)") {
                consume(try decoder.decode(Models.DeckDraw.self, from: ScenarioPayloads.deckDraw))
            },
            .repeating("json/menu endpoint: 2 decodes+trim+encode (JSONCoding)") {
                let items = try decoder.decode([Models.MenuItem].self, from: ScenarioPayloads.menu)
                let dish = try decoder.decode(Models.MenuItem.self, from: ScenarioPayloads.dishOfTheDay)
                consume(try encoder.encode(Models.MenuResponse(items: items, dishOfTheDay: dish)))
            },
            .repeating("json/menu endpoint: 2 decodes+trim+encode (Foundation)") {
                let items = try foundationDecoder.decode([Models.MenuItem].self, from: Data(ScenarioPayloads.menu))
                let dish = try foundationDecoder.decode(Models.MenuItem.self, from: Data(ScenarioPayloads.dishOfTheDay))
                consume(try foundationEncoder.encode(Models.MenuResponse(items: items, dishOfTheDay: dish)))
            },
            .repeating("json/person endpoint: 4 decodes+trim+encode (JSONCoding)") {
                let person = try decoder.decode(Models.SwapiPerson.self, from: ScenarioPayloads.person)
                let planet = try decoder.decode(Models.SwapiPlanet.self, from: ScenarioPayloads.planet)
                let ships = try [ScenarioPayloads.starship, ScenarioPayloads.starship].map { bytes throws(JSONDecodingError) in
                    try decoder.decode(Models.SwapiStarship.self, from: bytes)
                }
                consume(try encoder.encode(Models.PersonResponse(id: 1, person: person, planet: planet, starships: ships)))
            },
            .repeating("json/person endpoint: 4 decodes+trim+encode (Foundation)") {
                let person = try foundationDecoder.decode(Models.SwapiPerson.self, from: Data(ScenarioPayloads.person))
                let planet = try foundationDecoder.decode(Models.SwapiPlanet.self, from: Data(ScenarioPayloads.planet))
                let ships = try [ScenarioPayloads.starship, ScenarioPayloads.starship].map {
                    try foundationDecoder.decode(Models.SwapiStarship.self, from: Data($0))
                }
                consume(try foundationEncoder.encode(Models.PersonResponse(id: 1, person: person, planet: planet, starships: ships)))
            },
            .repeating("json/deal endpoint: decode+deal+encode (JSONCoding)") {
                let draw = try decoder.decode(Models.DeckDraw.self, from: ScenarioPayloads.deckDraw)
                consume(try encoder.encode(Models.DealResponse(deckId: "p3mqlyvcvjyl", draw: draw, players: 2)))
            },
        ]
    }
}
