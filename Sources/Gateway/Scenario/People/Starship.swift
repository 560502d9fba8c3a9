/// A starship as the client sees it.
struct Starship: Encodable, Sendable, Equatable {
    let name: String
    let model: String
    let starshipClass: String

    init(name: String, model: String, starshipClass: String) {
        self.name = name
        self.model = model
        self.starshipClass = starshipClass
    }

    init(_ starship: SwapiStarship) {
        self.init(name: starship.name, model: starship.model, starshipClass: starship.starshipClass)
    }

    private enum CodingKeys: String, CodingKey {
        case name, model
        case starshipClass = "class"
    }
}
