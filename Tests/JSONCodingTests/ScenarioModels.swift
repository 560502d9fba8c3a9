import Foundation

// Small models of the scenario's upstream payloads and combined responses, written the way
// gateway code writes them: synthesized Codable, snake_case keys mapped by CodingKeys.

struct Shuffle: Decodable {
    let success: Bool
    let deckID: String
    let shuffled: Bool
    let remaining: Int

    enum CodingKeys: String, CodingKey {
        case success, shuffled, remaining
        case deckID = "deck_id"
    }
}

struct Draw: Decodable {
    struct Card: Decodable {
        let code: String
        let image: URL
        let images: [String: URL]
        let value: String
        let suit: Suit
    }

    enum Suit: String, Decodable {
        case clubs = "CLUBS", diamonds = "DIAMONDS", hearts = "HEARTS", spades = "SPADES"
    }

    let success: Bool
    let deckID: String
    let cards: [Card]
    let remaining: Int

    enum CodingKeys: String, CodingKey {
        case success, cards, remaining
        case deckID = "deck_id"
    }
}

struct DeckFailure: Decodable {
    let success: Bool
    let error: String
}

struct Person: Decodable {
    let name: String
    let birthYear: String
    let homeworld: URL
    let species: [URL]
    let starships: [URL]

    enum CodingKeys: String, CodingKey {
        case name, homeworld, species, starships
        case birthYear = "birth_year"
    }
}

struct Planet: Decodable {
    let name: String
    let climate: String
    let population: String
    let residents: [URL]
}

struct Starship: Decodable {
    let name: String
    let model: String
    let starshipClass: String
    let length: String
    let pilots: [URL]

    enum CodingKeys: String, CodingKey {
        case name, model, length, pilots
        case starshipClass = "starship_class"
    }
}

struct SwapiNotFound: Decodable {
    let detail: String
}

struct Dish: Codable, Equatable {
    let name: String
    let category: String
    let spicy: Bool
    let price: Double
}

/// A dish in the `/v1/menu` response; its keys happen to be in alphabetical order, which lets tests
/// compare with Foundation's `.sortedKeys` output.
struct MenuItem: Codable, Equatable {
    let name: String
    let price: Double
    let spicy: Bool
}

struct MenuSection: Codable, Equatable {
    let category: String
    let items: [MenuItem]
}

struct MenuResponse: Encodable {
    let dishOfTheDay: MenuItem?
    let sections: [MenuSection]
    let degraded: [String]

    enum CodingKeys: String, CodingKey {
        case dishOfTheDay, sections, degraded
    }

    // Synthesized conformance would skip a nil dish (`encodeIfPresent`); the contract wants `null`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dishOfTheDay, forKey: .dishOfTheDay)
        try container.encode(sections, forKey: .sections)
        try container.encode(degraded, forKey: .degraded)
    }
}

struct PeopleResponse: Encodable {
    struct Homeworld: Encodable {
        let name: String
        let climate: String
        let population: Int?

        enum CodingKeys: String, CodingKey {
            case name, climate, population
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(climate, forKey: .climate)
            try container.encode(population, forKey: .population)
        }
    }

    struct Ship: Encodable {
        let name: String
        let model: String
        let shipClass: String

        enum CodingKeys: String, CodingKey {
            case name, model
            case shipClass = "class"
        }
    }

    let id: Int
    let name: String
    let birthYear: String
    let homeworld: Homeworld?
    let starships: [Ship]?
    let degraded: [String]

    enum CodingKeys: String, CodingKey {
        case id, name, birthYear, homeworld, starships, degraded
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(birthYear, forKey: .birthYear)
        try container.encode(homeworld, forKey: .homeworld)
        try container.encode(starships, forKey: .starships)
        try container.encode(degraded, forKey: .degraded)
    }
}

struct DealResponse: Encodable {
    let deckId: String
    let hands: [[String]]
    let remaining: Int
}

struct Problem: Encodable {
    let type: String
    let title: String
    let status: Int
    let detail: String
    let instance: String
}
