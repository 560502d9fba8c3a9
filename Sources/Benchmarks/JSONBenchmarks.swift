import Foundation
import Gateway
import ReferenceScenario
import JSONCoding

/// JSONCoding against Foundation on the scenario's bodies, with the gateway's own models:
/// decoding each upstream answer, and each endpoint's whole JSON work (decode every upstream
/// body, trim, encode the response).
enum JSONBenchmarks {
    static var all: [Benchmark] {
        let decoder = JSONByteDecoder()
        let encoder = JSONByteEncoder()
        let foundationDecoder = JSONDecoder()
        let foundationEncoder = JSONEncoder()
        return [
            .repeating("json/decode menu, 11 items (JSONCoding)") {
                consume(try decoder.decode([MenuItem].self, from: FixtureBodies.menu))
            },
            .repeating("json/decode menu, 11 items (Foundation)") {
                consume(try foundationDecoder.decode([MenuItem].self, from: Data(FixtureBodies.menu)))
            },
            .repeating("json/decode person (JSONCoding)") {
                consume(try decoder.decode(SwapiPerson.self, from: FixtureBodies.person))
            },
            .repeating("json/decode person (Foundation)") {
                consume(try foundationDecoder.decode(SwapiPerson.self, from: Data(FixtureBodies.person)))
            },
            .repeating("json/decode deck draw, 10 cards (JSONCoding)") {
                consume(try decoder.decode(DeckDraw.self, from: FixtureBodies.deckDraw))
            },
            .repeating("json/menu endpoint: 2 decodes+trim+encode (JSONCoding)") {
                let items = try decoder.decode([MenuItem].self, from: FixtureBodies.menu)
                let dish = try decoder.decode(MenuItem.self, from: FixtureBodies.dishOfTheDay)
                consume(try encoder.encode(MenuResponse(items: items, dishOfTheDay: dish)))
            },
            .repeating("json/menu endpoint: 2 decodes+trim+encode (Foundation)") {
                let items = try foundationDecoder.decode([MenuItem].self, from: Data(FixtureBodies.menu))
                let dish = try foundationDecoder.decode(MenuItem.self, from: Data(FixtureBodies.dishOfTheDay))
                consume(try foundationEncoder.encode(MenuResponse(items: items, dishOfTheDay: dish)))
            },
            .repeating("json/person endpoint: 4 decodes+trim+encode (JSONCoding)") {
                let person = try decoder.decode(SwapiPerson.self, from: FixtureBodies.person)
                let planet = try decoder.decode(SwapiPlanet.self, from: FixtureBodies.planet)
                let ships = try [FixtureBodies.starship, FixtureBodies.starship].map { bytes throws(JSONDecodingError) in
                    try decoder.decode(SwapiStarship.self, from: bytes)
                }
                consume(try encoder.encode(PersonResponse(id: 1, person: person, homeworld: planet, starships: ships)))
            },
            .repeating("json/person endpoint: 4 decodes+trim+encode (Foundation)") {
                let person = try foundationDecoder.decode(SwapiPerson.self, from: Data(FixtureBodies.person))
                let planet = try foundationDecoder.decode(SwapiPlanet.self, from: Data(FixtureBodies.planet))
                let ships = try [FixtureBodies.starship, FixtureBodies.starship].map {
                    try foundationDecoder.decode(SwapiStarship.self, from: Data($0))
                }
                consume(try foundationEncoder.encode(PersonResponse(id: 1, person: person, homeworld: planet, starships: ships)))
            },
            .repeating("json/deal endpoint: decode+deal+encode (JSONCoding)") {
                let draw = try decoder.decode(DeckDraw.self, from: FixtureBodies.deckDraw)
                consume(try encoder.encode(DealResponse(deckId: "p3mqlyvcvjyl", draw: draw, players: 2)))
            },
        ]
    }
}
