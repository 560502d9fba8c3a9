/// A path into a call's answer that the endpoint's templates read; each is looked up once per
/// answer, however many templates use it.
struct Extraction: Hashable, Sendable {
    let steps: [Reference.Step]
    /// Whether a template interpolates it into text (a path, link, query or string), so its
    /// text is kept beside its JSON.
    var isText: Bool
}
