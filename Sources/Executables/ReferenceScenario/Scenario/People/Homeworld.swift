import Gateway

/// A person's planet as the client sees it.
struct Homeworld: Encodable, Sendable, Equatable {
    let name: String
    let climate: String
    @Nullable var population: Population?
}

extension Homeworld {
    init(_ planet: SwapiPlanet) {
        self.init(name: planet.name, climate: planet.climate, population: Population(planet.population))
    }
}
