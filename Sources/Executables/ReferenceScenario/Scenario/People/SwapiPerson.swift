/// The fields of a SWAPI person the gateway reads.
package struct SwapiPerson: Decodable, Sendable, Equatable {
    let name: String
    let birthYear: String
    /// A link to the planet; absent or empty when the person has none.
    let homeworld: String?
    let starships: [String]

    private enum CodingKeys: String, CodingKey {
        case name, homeworld, starships
        case birthYear = "birth_year"
    }
}
