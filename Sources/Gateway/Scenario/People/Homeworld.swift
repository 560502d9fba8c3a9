/// A person's planet as the client sees it.
struct Homeworld: Encodable, Sendable, Equatable {
    let name: String
    let climate: String
    @Nullable var population: Population?

    init(name: String, climate: String, population: Population?) {
        self.name = name
        self.climate = climate
        self.population = population
    }

    init(_ planet: SwapiPlanet) {
        self.init(name: planet.name, climate: planet.climate, population: Population(planet.population))
    }
}
