/// The fields of a SWAPI planet the gateway reads.
package struct SwapiPlanet: Decodable, Sendable, Equatable {
    let name: String
    let climate: String
    /// A number written as a string, or `"unknown"`.
    let population: String?
}
