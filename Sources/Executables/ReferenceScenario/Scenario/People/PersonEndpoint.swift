import Gateway
import UpstreamKit

extension Endpoint {
    /// `GET /v1/people/:id`: the person, then its homeworld and every starship at once.
    static let person = Endpoint(
        "/v1/people/:id",
        summary: "A Star Wars character with its homeworld and starships",
        parameters: [.path("id", integerIn: 1...Int(Int32.max), "SWAPI person id")],
        upstreams: [.swapi],
        optionalParts: ["homeworld", "starships"],
        example: PersonResponse.example
    ) { call in
        let id = try call.integer("id")
        let swapi = try call.upstream(.swapi)
        let person = try await swapi.get("people", String(id), trailingSlash: true, as: SwapiPerson.self)
        // Starships run in a child task while this task fetches the homeworld.
        async let starships = call.optional("starships") {
            try await person.starships.concurrentMap { try await swapi.follow($0, as: SwapiStarship.self) }
        }
        let planet = try await call.optional("homeworld") { () async throws(UpstreamFailure) -> SwapiPlanet? in
            guard let link = person.homeworld, !link.isEmpty else { return nil }
            return try await swapi.follow(link, as: SwapiPlanet.self)
        }
        let ships = try await starships
        return PersonResponse(id: id, person: person, homeworld: planet ?? nil, starships: ships)
    }
}
