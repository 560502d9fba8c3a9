import Foundation
import JSONCoding
import Testing

@Suite struct ScenarioPayloadTests {
    let decoder = JSONByteDecoder()

    @Test func decodesShuffle() throws {
        let shuffle = try decoder.decode(Shuffle.self, from: ScenarioFixtures.shuffle.bytes)
        #expect(shuffle.success && shuffle.shuffled)
        #expect(shuffle.deckID == "3p40paa87x90")
        #expect(shuffle.remaining == 52)
    }

    @Test func decodesDrawWithNestedCardsAndImageDictionary() throws {
        let draw = try decoder.decode(Draw.self, from: ScenarioFixtures.draw.bytes)
        #expect(draw.cards.map(\.code) == ["6H", "KS"])
        #expect(draw.cards[1].suit == .spades)
        #expect(draw.cards[0].image == URL(string: "https://deckofcardsapi.com/static/img/6H.png"))
        #expect(draw.cards[0].images["svg"] == URL(string: "https://deckofcardsapi.com/static/img/6H.svg"))
        #expect(draw.remaining == 50)
    }

    @Test func decodesUnknownDeckError() throws {
        let failure = try decoder.decode(DeckFailure.self, from: ScenarioFixtures.unknownDeck.bytes)
        #expect(!failure.success)
        #expect(failure.error == "Deck ID does not exist.")
    }

    @Test func decodesLuke() throws {
        let luke = try decoder.decode(Person.self, from: ScenarioFixtures.luke.bytes)
        #expect(luke.name == "Luke Skywalker")
        #expect(luke.birthYear == "19BBY")
        #expect(luke.homeworld == URL(string: "https://swapi.dev/api/planets/1/"))
        #expect(luke.species.isEmpty)
        #expect(luke.starships.count == 2)
    }

    @Test func decodesTatooine() throws {
        let planet = try decoder.decode(Planet.self, from: ScenarioFixtures.tatooine.bytes)
        #expect(planet.name == "Tatooine")
        #expect(planet.climate == "arid")
        #expect(Int(planet.population) == 200_000)
        #expect(planet.residents.count == 2)
    }

    @Test func decodesXWing() throws {
        let ship = try decoder.decode(Starship.self, from: ScenarioFixtures.xWing.bytes)
        #expect(ship.name == "X-wing")
        #expect(ship.model == "T-65 X-wing")
        #expect(ship.starshipClass == "Starfighter")
        #expect(ship.length == "12.5")
    }

    @Test func decodesSwapiNotFound() throws {
        #expect(try decoder.decode(SwapiNotFound.self, from: ScenarioFixtures.swapiNotFound.bytes).detail == "Not found")
    }

    @Test func decodesMenuLikeFoundation() throws {
        let ours = try decoder.decode([Dish].self, from: ScenarioFixtures.menu.bytes)
        let foundation = try JSONDecoder().decode([Dish].self, from: Data(ScenarioFixtures.menu.utf8))
        #expect(ours.count == 11)
        #expect(ours == foundation)
        #expect(ours[6].name == "Tiramisù")
        #expect(ours[2].price == 8)
    }

    @Test func decodesDishOfTheDay() throws {
        let dish = try decoder.decode(Dish.self, from: ScenarioFixtures.dishOfTheDay.bytes)
        #expect(dish == Dish(name: "Spaghetti Carbonara", category: "pastas", spicy: false, price: 7.5))
    }

    @Test func decodesFromARawBuffer() throws {
        let dish = try ScenarioFixtures.dishOfTheDay.bytes.withUnsafeBytes { buffer in
            try decoder.decode(Dish.self, from: buffer)
        }
        #expect(dish.price == 7.5)
    }
}
