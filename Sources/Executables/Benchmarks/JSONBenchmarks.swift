import Foundation
import Gateway
import JMESPath
import JSONCoding
import ReferenceScenario

/// JSONCoding against Foundation on the scenario's bodies, with the gateway's own models:
/// decoding each upstream answer, and each endpoint's whole JSON work (decode every upstream
/// body, trim, encode the response).
enum JSONBenchmarks {
    static var all: [Benchmark] {
        let decoder = JSONByteDecoder()
        let encoder = JSONByteEncoder()
        let foundationDecoder = JSONDecoder()
        let foundationEncoder = JSONEncoder()
        let product = ProductPage()
        return [
            // Issue 33's product page: what decoding the two upstream answers into values costs,
            // against evaluating the page's four expressions on them.
            .repeating("jmespath/product page: decode catalog and reviews") {
                consume(try JMESPathValue(parsingJSON: ProductPage.catalog))
                consume(try JMESPathValue(parsingJSON: ProductPage.reviews))
            },
            .repeating("jmespath/product page: evaluate 4 expressions") {
                for expression in product.expressions { consume(try expression.evaluate(on: product.context)) }
            },
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

/// Issue 33's product page: the catalog's and reviews' answers, and the response's expressions.
struct ProductPage {
    static let catalog = Array(#"{"id":1,"name":"Espresso cup","price_cents":1234,"stock":7,"warehouse":"B4","supplier":{"id":9,"name":"Porcelain Ltd"}}"#.utf8)
    static let reviews = Array(
        #"{"items":[{"stars":4,"text":"Lovely","user":"a"},{"stars":5,"text":"Good","user":"b"},{"stars":1,"text":"OK","user":"c"},{"stars":4,"text":"Meh","user":"d"}]}"#
            .utf8)

    let expressions = [
        "to_string(catalog.price_cents / `100`)", "catalog.stock > `0`", "avg(reviews.items[*].stars)", "reviews.items[:3].text",
    ].map { try! JMESPathExpression($0) }
    let context: JMESPathValue = .object([
        ("catalog", try! JMESPathValue(parsingJSON: ProductPage.catalog)), ("reviews", try! JMESPathValue(parsingJSON: ProductPage.reviews)),
    ])
}
