/// The body of `GET /v1/people/{id}`.
struct PersonResponse: Encodable, Sendable, Equatable {
    let id: Int
    let name: String
    let birthYear: String
    let homeworld: Homeworld?
    let starships: [Starship]?
    let degraded: [String]

    /// Merges a person with its planet and starships; a nil part failed (or, for the planet,
    /// was not linked).
    init(id: Int, person: SwapiPerson, homeworld: SwapiPlanet?, starships: [SwapiStarship]?, degraded: [String]) {
        self.id = id
        self.name = person.name
        self.birthYear = person.birthYear
        self.homeworld = homeworld.map(Homeworld.init)
        self.starships = starships?.map(Starship.init)
        self.degraded = degraded
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, birthYear, homeworld, starships, degraded
    }

    /// Written out so that failed parts are sent as `null` rather than left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(birthYear, forKey: .birthYear)
        try container.encode(homeworld, forKey: .homeworld)
        try container.encode(starships, forKey: .starships)
        try container.encode(degraded, forKey: .degraded)
    }

    static let example = PersonResponse(
        id: 1,
        person: SwapiPerson(name: "Luke Skywalker", birthYear: "19BBY", homeworld: nil, starships: []),
        homeworld: SwapiPlanet(name: "Tatooine", climate: "arid", population: "200000"),
        starships: [SwapiStarship(name: "X-wing", model: "T-65 X-wing", starshipClass: "Starfighter")],
        degraded: [])
}
