/// An object of the endpoints file, read field by field: every error names where it is, and a
/// field the format does not know is refused (so a misspelt one is not silently ignored).
struct FileObject {
    /// Where the object is, put before each error; empty when the caller places its errors itself.
    let place: String
    private let members: [(String, JSONValue)]

    init(_ value: JSONValue, place: String, fields: Set<String>) throws(EndpointsFileError) {
        guard case .object(let members) = value else {
            throw EndpointsFileError(place.isEmpty ? "must be an object" : "\(place) must be an object")
        }
        if let unknown = members.first(where: { !fields.contains($0.0) }) {
            throw EndpointsFileError(Self.located(place, "unknown field \(unknown.0.debugDescription); expected one of \(fields.sorted().joined(separator: ", "))"))
        }
        var seen = Set<String>()
        for (key, _) in members where !seen.insert(key).inserted {
            throw EndpointsFileError(Self.located(place, "field \(key.debugDescription) appears twice"))
        }
        self.place = place
        self.members = members
    }

    subscript(key: String) -> JSONValue? {
        members.first { $0.0 == key }?.1
    }

    func string(_ key: String) throws(EndpointsFileError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let string) = value else { throw EndpointsFileError(Self.located(place, "\(key) must be a string")) }
        return string
    }

    func requiredString(_ key: String) throws(EndpointsFileError) -> String {
        guard let string = try string(key) else { throw EndpointsFileError(Self.located(place, "\(key) is missing")) }
        return string
    }

    func integer(_ key: String) throws(EndpointsFileError) -> Int? {
        guard let value = self[key] else { return nil }
        guard case .integer(let integer) = value else { throw EndpointsFileError(Self.located(place, "\(key) must be an integer")) }
        return integer
    }

    func bool(_ key: String) throws(EndpointsFileError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard case .bool(let bool) = value else { throw EndpointsFileError(Self.located(place, "\(key) must be true or false")) }
        return bool
    }

    /// An array of strings, in file order; empty when the field is absent.
    func strings(_ key: String) throws(EndpointsFileError) -> [String] {
        guard let value = self[key] else { return [] }
        guard case .array(let elements) = value else { throw EndpointsFileError(Self.located(place, "\(key) must be an array of strings")) }
        var strings: [String] = []
        for element in elements {
            guard case .string(let string) = element else { throw EndpointsFileError(Self.located(place, "\(key) must be an array of strings")) }
            strings.append(string)
        }
        return strings
    }

    /// The members of an object field, in file order.
    func members(_ key: String) throws(EndpointsFileError) -> [(String, JSONValue)] {
        guard let value = self[key] else { return [] }
        guard case .object(let members) = value else { throw EndpointsFileError(Self.located(place, "\(key) must be an object")) }
        var seen = Set<String>()
        for (name, _) in members where !seen.insert(name).inserted {
            throw EndpointsFileError(Self.located(place, "\(key) names \(name.debugDescription) twice"))
        }
        return members
    }

    /// `text` placed at `place`: `call a: unknown field …`, or the text alone for an empty place.
    private static func located(_ place: String, _ text: String) -> String {
        place.isEmpty ? text : place + ": " + text
    }
}
