/// One entry of an endpoint's `parameters`, checked: the `EndpointParameter` that documents and
/// validates it, and whether a request may leave it out.
struct ParameterDefinition {
    let parameter: EndpointParameter
    /// A query parameter that is neither required nor defaulted: left out, its value is `null`.
    let mayBeAbsent: Bool

    /// Integers are read as digits only, so ranges start at 0; 18 digits always fit in `Int`.
    private static let largestInteger = 999_999_999_999_999_999
    /// Text parameters are short, so a pattern never runs long on one.
    private static let longestText = 1000

    init(name: String, _ value: JSONValue) throws(EndpointsFileError) {
        let place = "parameter \(name)"
        guard Reference.isName(name) else {
            throw EndpointsFileError("\(place.debugDescription): a parameter name is 1 to 64 letters, digits, _ or -")
        }
        let object = try FileObject(
            value, place: place,
            fields: ["in", "type", "description", "minimum", "maximum", "pattern", "maxLength", "required", "default"])
        let location: EndpointParameter.Location
        switch try object.requiredString("in") {
        case "path": location = .path
        case "query": location = .query
        default: throw EndpointsFileError("\(place): in must be path or query")
        }
        let isRequired = try object.bool("required")
        if location == .path, isRequired == false || object["default"] != nil {
            throw EndpointsFileError("\(place): a path parameter is always required and has no default")
        }
        if isRequired == true, object["default"] != nil {
            throw EndpointsFileError("\(place): a required parameter has no default")
        }
        let kind: EndpointParameter.Kind
        switch try object.requiredString("type") {
        case "integer":
            for key in ["pattern", "maxLength"] where object[key] != nil {
                throw EndpointsFileError("\(place): \(key) applies to string parameters")
            }
            let minimum = try object.integer("minimum") ?? 0
            let maximum = try object.integer("maximum") ?? Self.largestInteger
            guard minimum >= 0, maximum <= Self.largestInteger, minimum <= maximum else {
                throw EndpointsFileError("\(place): minimum and maximum must satisfy 0 <= minimum <= maximum <= \(Self.largestInteger)")
            }
            let defaultValue = try object.integer("default")
            if let defaultValue, !(minimum...maximum).contains(defaultValue) {
                throw EndpointsFileError("\(place): default is outside minimum...maximum")
            }
            kind = .integer(range: minimum...maximum, defaultValue: defaultValue)
        case "string":
            for key in ["minimum", "maximum"] where object[key] != nil {
                throw EndpointsFileError("\(place): \(key) applies to integer parameters")
            }
            let maximumLength = try object.integer("maxLength") ?? 200
            guard (1...Self.longestText).contains(maximumLength) else {
                throw EndpointsFileError("\(place): maxLength must be from 1 to \(Self.longestText)")
            }
            var pattern: ParameterPattern?
            if let source = try object.string("pattern") {
                do {
                    pattern = try ParameterPattern(source)
                } catch {
                    throw EndpointsFileError("\(place): pattern \(source.debugDescription) is not a valid regular expression")
                }
            }
            kind = .text(maximumLength: maximumLength, pattern: pattern, defaultValue: try object.string("default"))
        default:
            throw EndpointsFileError("\(place): type must be integer or string")
        }
        parameter = EndpointParameter(name: name, location: location, kind: kind, summary: try object.string("description") ?? "")
        if case .text(_, _, let defaultValue?) = kind {
            do {
                _ = try parameter.string(from: defaultValue)
            } catch {
                throw EndpointsFileError("\(place): default is not a valid value (\(error.detail))")
            }
        }
        mayBeAbsent = location == .query && isRequired != true && object["default"] == nil
    }
}
