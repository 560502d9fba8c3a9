/// The percent-decoded values of a route's `:name` segments.
///
/// Every value has been checked: valid UTF-8, not empty, not `.` or `..`, and free of `/`, `\`,
/// `?`, `#` and control characters once decoded, so it is safe to place in an upstream path.
public struct PathParameters: Sendable, Equatable {
    private var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    /// The decoded value of the `:name` segment, or nil when the route has none by that name.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
    }
}
