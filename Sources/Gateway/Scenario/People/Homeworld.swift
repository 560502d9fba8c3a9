/// A person's planet as the client sees it.
struct Homeworld: Encodable, Sendable, Equatable {
    let name: String
    let climate: String
    let population: Population?

    init(name: String, climate: String, population: Population?) {
        self.name = name
        self.climate = climate
        self.population = population
    }

    init(_ planet: SwapiPlanet) {
        self.init(name: planet.name, climate: planet.climate, population: Population(planet.population))
    }

    private enum CodingKeys: String, CodingKey {
        case name, climate, population
    }

    /// Written out so that an unknown population is sent as `null` rather than left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(climate, forKey: .climate)
        try container.encode(population, forKey: .population)
    }
}
