/// Encodes nothing at all.
struct Silent: Encodable {
    func encode(to encoder: any Encoder) throws {}
}
