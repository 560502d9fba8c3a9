/// The scenario's upstream and response models, shaped like the `gateway` executable's
/// (`Sources/Gateway/Scenario`): an executable target cannot be imported, so the benchmarks
/// keep copies with the same fields, coding keys and trimming. Keep them in step.
enum ScenarioModels {
    struct MenuItem: Codable, Sendable {
        let name: String
        let category: String
        let spicy: Bool
        let price: Double
    }

    struct Dish: Codable, Sendable {
        let name: String
        let price: Double
        let spicy: Bool
    }

    struct MenuSection: Codable, Sendable {
        let category: String
        var items: [Dish]
    }

    struct MenuResponse: Codable, Sendable {
        let dishOfTheDay: Dish?
        let sections: [MenuSection]
        let degraded: [String]

        /// Groups the items by category, in order of first appearance, as the gateway does.
        init(items: [MenuItem], dishOfTheDay: MenuItem?) {
            var sections: [MenuSection] = []
            var indexByCategory: [String: Int] = [:]
            for item in items {
                let dish = Dish(name: item.name, price: item.price, spicy: item.spicy)
                if let index = indexByCategory[item.category] {
                    sections[index].items.append(dish)
                } else {
                    indexByCategory[item.category] = sections.count
                    sections.append(MenuSection(category: item.category, items: [dish]))
                }
            }
            self.dishOfTheDay = dishOfTheDay.map { Dish(name: $0.name, price: $0.price, spicy: $0.spicy) }
            self.sections = sections
            self.degraded = []
        }
    }

    struct SwapiPerson: Codable, Sendable {
        let name: String
        let birthYear: String
        let homeworld: String?
        let starships: [String]

        private enum CodingKeys: String, CodingKey {
            case name, homeworld, starships
            case birthYear = "birth_year"
        }
    }

    struct SwapiPlanet: Codable, Sendable {
        let name: String
        let climate: String
        let population: String?
    }

    struct SwapiStarship: Codable, Sendable {
        let name: String
        let model: String
        let starshipClass: String

        private enum CodingKeys: String, CodingKey {
            case name, model
            case starshipClass = "starship_class"
        }
    }

    struct Homeworld: Codable, Sendable {
        let name: String
        let climate: String
        let population: Int64?
    }

    struct Starship: Codable, Sendable {
        let name: String
        let model: String
        let starshipClass: String

        private enum CodingKeys: String, CodingKey {
            case name, model
            case starshipClass = "class"
        }
    }

    struct PersonResponse: Codable, Sendable {
        let id: Int
        let name: String
        let birthYear: String
        let homeworld: Homeworld?
        let starships: [Starship]?
        let degraded: [String]

        init(id: Int, person: SwapiPerson, planet: SwapiPlanet, starships: [SwapiStarship]) {
            self.id = id
            self.name = person.name
            self.birthYear = person.birthYear
            self.homeworld = Homeworld(name: planet.name, climate: planet.climate, population: planet.population.flatMap { Int64($0) })
            self.starships = starships.map { Starship(name: $0.name, model: $0.model, starshipClass: $0.starshipClass) }
            self.degraded = []
        }
    }

    struct DeckDraw: Codable, Sendable {
        struct Card: Codable, Sendable {
            let code: String
        }

        let success: Bool
        let cards: [Card]
        let remaining: Int
    }

    struct DealResponse: Codable, Sendable {
        let deckId: String
        let hands: [[String]]
        let remaining: Int

        init(deckId: String, draw: DeckDraw, players: Int) {
            var hands = [[String]](repeating: [], count: players)
            for (index, card) in draw.cards.enumerated() {
                hands[index % players].append(card.code)
            }
            self.deckId = deckId
            self.hands = hands
            self.remaining = draw.remaining
        }
    }
}
