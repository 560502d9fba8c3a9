/// Why fetching the key set failed; never quotes the answer's body.
struct KeySetFetchError: Error, Sendable, CustomStringConvertible {
    let description: String
}
