/// A starship as the client sees it.
struct Starship: Encodable, Sendable, Equatable {
    let name: String
    let model: String
    let starshipClass: String

    private enum CodingKeys: String, CodingKey {
        case name, model
        case starshipClass = "class"
    }
}

extension Starship {
    init(_ starship: SwapiStarship) {
        self.init(name: starship.name, model: starship.model, starshipClass: starship.starshipClass)
    }
}
