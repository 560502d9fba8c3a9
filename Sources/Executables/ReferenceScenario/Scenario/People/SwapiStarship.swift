/// The fields of a SWAPI starship the gateway reads.
package struct SwapiStarship: Decodable, Sendable, Equatable {
    let name: String
    let model: String
    let starshipClass: String

    private enum CodingKeys: String, CodingKey {
        case name, model
        case starshipClass = "starship_class"
    }
}
