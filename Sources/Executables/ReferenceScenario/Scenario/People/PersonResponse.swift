import Gateway

/// The body of `GET /v1/people/{id}`; the framework adds `degraded`.
package struct PersonResponse: Encodable, Sendable, Equatable {
    let id: Int
    let name: String
    let birthYear: String
    @Nullable var homeworld: Homeworld?
    @Nullable var starships: [Starship]?

    /// Merges a person with its planet and starships; a nil part failed (or, for the planet,
    /// was not linked).
    package init(id: Int, person: SwapiPerson, homeworld: SwapiPlanet?, starships: [SwapiStarship]?) {
        self.id = id
        self.name = person.name
        self.birthYear = person.birthYear
        self.homeworld = homeworld.map(Homeworld.init)
        self.starships = starships?.map(Starship.init)
    }

    static let example = PersonResponse(
        id: 1,
        person: SwapiPerson(name: "Luke Skywalker", birthYear: "19BBY", homeworld: nil, starships: []),
        homeworld: SwapiPlanet(name: "Tatooine", climate: "arid", population: "200000"),
        starships: [SwapiStarship(name: "X-wing", model: "T-65 X-wing", starshipClass: "Starfighter")])
}
