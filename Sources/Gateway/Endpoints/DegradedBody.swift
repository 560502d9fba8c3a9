/// A handler's object body with `degraded` added as its last member, so response types do not
/// each declare it: the body encodes its members, then the same object gets one more.
struct DegradedBody<Body: Encodable>: Encodable {
    let body: Body
    let degraded: [String]

    private enum Key: String, CodingKey {
        case degraded
    }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(degraded, forKey: .degraded)
    }
}
