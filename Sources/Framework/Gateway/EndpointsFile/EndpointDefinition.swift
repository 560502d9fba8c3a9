import HTTPBasics
import JMESPath

/// One entry of the file's `endpoints`, checked and compiled into an `Endpoint`.
struct EndpointDefinition {
    let endpoint: Endpoint

    private static let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete]
    /// Bounds on one endpoint, so that start-up checks and each request's scheduling stay cheap.
    static let maximumCalls = 64
    static let maximumParameters = 64

    init(_ value: JSONValue, position: Int, upstreams: [UpstreamDefinition]) throws(EndpointsFileError) {
        let object = try FileObject(
            value, place: "endpoints[\(position)]",
            fields: ["method", "path", "summary", "authentication", "scopes", "rate_limit", "parameters", "calls", "response", "example"])
        let method = HTTPMethod(rawValue: try object.string("method") ?? "GET")
        let path = try object.requiredString("path")
        let place = "endpoint \(method) \(path)"
        do {
            endpoint = try Self.compile(object, method: method, path: path, upstreams: upstreams)
        } catch {
            throw error.within(place)
        }
    }

    private static func compile(
        _ object: FileObject, method: HTTPMethod, path: String, upstreams: [UpstreamDefinition]
    ) throws(EndpointsFileError) -> Endpoint {
        guard methods.contains(method) else {
            throw EndpointsFileError("method must be one of \(methods.map(\.rawValue).joined(separator: ", "))")
        }
        let route = try routePath(path)
        let pathParameters = route.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
        var parameters: [EndpointParameter] = []
        var mayBeAbsent: [Bool] = []
        let parameterMembers = try object.members("parameters")
        guard parameterMembers.count <= maximumParameters else {
            throw EndpointsFileError("an endpoint has at most \(maximumParameters) parameters")
        }
        for (name, value) in parameterMembers {
            let declared = try ParameterDefinition(name: name, value)
            if declared.parameter.location == .path, !pathParameters.contains(name) {
                throw EndpointsFileError("path parameter \(name) is missing from the path; write {\(name)} in it")
            }
            parameters.append(declared.parameter)
            mayBeAbsent.append(declared.mayBeAbsent)
        }
        for name in pathParameters where !parameters.contains(where: { $0.name == name && $0.location == .path }) {
            throw EndpointsFileError("the path names {\(name)}, which is not declared in parameters with \"in\": \"path\"")
        }
        let callMembers = try object.members("calls")
        guard callMembers.count <= maximumCalls else { throw EndpointsFileError("an endpoint has at most \(maximumCalls) calls") }
        let callNames = callMembers.map(\.0)
        if let clash = callNames.first(where: { name in parameters.contains { $0.name == name } }) {
            throw EndpointsFileError("\(clash) is both a parameter and a call")
        }
        if callNames.contains(ReferenceTable.claimsRoot) || parameters.contains(where: { $0.name == ReferenceTable.claimsRoot }) {
            throw EndpointsFileError("\(ReferenceTable.claimsRoot) names the caller's claims ({auth.sub}); call the parameter or call otherwise")
        }
        var references = ReferenceTable(parameterNames: parameters.map(\.name), callNames: callNames)
        var calls: [FileCall] = []
        for (name, value) in callMembers {
            do {
                calls.append(try CallDefinition.compile(name: name, value, upstreams: upstreams, references: &references))
            } catch {
                throw error.within("call \(name)")
            }
        }
        try checkDependencies(of: calls)
        guard let responseValue = object["response"] else { throw EndpointsFileError("response is missing") }
        let response: JSONTemplate
        do {
            response = try JSONTemplate(responseValue, references: &references)
        } catch {
            throw error.within("response")
        }
        if case .object(let members) = responseValue, members.contains(where: { $0.0 == "degraded" }) {
            throw EndpointsFileError("response: degraded is added by the gateway; use another name")
        }
        for index in calls.indices {
            calls[index].extractions = references.extractions[index]
            calls[index].keepsDocument = references.keepsDocument[index]
        }
        if let example = object["example"], let place = placeWithoutExample(responseValue, example: example) {
            throw EndpointsFileError("example: it has no \(place), which the response fills from a reference; add it, or correct the reference")
        }
        let missingFields = MissingFieldLog(
            method: method.rawValue, route: route,
            references: calls.map { call in call.extractions.map { Reference(root: call.name, steps: $0.steps).description } },
            expressions: response.expressions.map(\.place))
        let compiled = FileEndpoint(
            parameters: parameters, mayBeAbsent: mayBeAbsent, claims: references.claims, readsClaims: references.readsClaims, calls: calls, response: response,
            missingFields: missingFields)
        var calledUpstreams: [UpstreamDefinition] = []
        for call in calls where !calledUpstreams.contains(where: { $0.name == call.upstream.name }) {
            calledUpstreams.append(call.upstream)
        }
        return Endpoint(
            method: method, path: route, summary: try object.string("summary") ?? "", authentication: try authentication(object),
            rateLimit: try rateLimit(object), parameters: parameters,
            upstreams: calledUpstreams, optionalParts: calls.filter(\.isOptional).map(\.name),
            nullableFields: nullableFields(of: responseValue),
            computedFields: Dictionary(response.expressions.map { ($0.place, $0.expression.text) }) { first, _ in first },
            example: example(object["example"], response: responseValue), missingFields: missingFields,
            respond: compiled.respond)
    }

    /// The endpoint's or proxy route's `authentication`, `required` (the default) or `none`, with
    /// the `scopes` a token must grant; the catalog check checks each is a scope token.
    static func authentication(_ object: FileObject) throws(EndpointsFileError) -> Authentication {
        let scopes = try object.strings("scopes")
        switch try object.string("authentication") ?? "required" {
        case "required":
            return .required(scopes: scopes)
        case "none":
            guard scopes.isEmpty else { throw EndpointsFileError("scopes need \"authentication\": \"required\"") }
            return .none
        default:
            throw EndpointsFileError("authentication must be \"required\" or \"none\"")
        }
    }

    /// The endpoint's `rate_limit`: `default` (`RATE_LIMIT`, when absent), `off`, or a policy such as `20/s burst 40`.
    static func rateLimit(_ object: FileObject) throws(EndpointsFileError) -> RateLimit {
        guard let text = try object.string("rate_limit") else { return .default }
        do {
            return try RateLimit(parsing: text)
        } catch {
            throw EndpointsFileError("rate_limit: \(error)")
        }
    }

    /// The router's form of a file path: `/v2/hero/{id}` becomes `/v2/hero/:id`.
    private static func routePath(_ path: String) throws(EndpointsFileError) -> String {
        guard path.first == "/" else { throw EndpointsFileError("path must start with /") }
        guard path.utf8.count <= 1024 else { throw EndpointsFileError("path is longer than 1024 bytes") }
        guard !path.contains(where: { $0 == "?" || $0 == "#" || $0 == "%" || $0 == ":" || $0.isWhitespace || !$0.isASCII }) else {
            throw EndpointsFileError("path may not hold ?, #, %, :, spaces or non-ASCII characters")
        }
        guard path != "/" else { return path }
        var segments: [String] = []
        for segment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if segment.first == "{" && segment.last == "}" && segment.count > 2 {
                let name = segment.dropFirst().dropLast()
                guard !name.contains(where: { $0 == "{" || $0 == "}" }) else { throw EndpointsFileError("invalid path segment \(segment)") }
                segments.append(":" + name)
            } else {
                guard !segment.contains(where: { $0 == "{" || $0 == "}" }) else {
                    throw EndpointsFileError("a path parameter must be a whole segment: \(segment)")
                }
                segments.append(String(segment))
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// Refuses a cycle between calls (naming the calls in it) and a required call that reads an
    /// optional one, which could not run when that one fails.
    private static func checkDependencies(of calls: [FileCall]) throws(EndpointsFileError) {
        for call in calls where !call.isOptional {
            if let optional = call.dependencies.first(where: { calls[$0].isOptional }) {
                throw EndpointsFileError("call \(call.name) reads optional call \(calls[optional].name), so it must be optional too")
            }
        }
        // Depth-first search; a call met again while on the current path closes a cycle.
        var state = Array(repeating: 0, count: calls.count)  // 0 unvisited, 1 on the path, 2 done
        var path: [Int] = []
        func visit(_ index: Int) -> [Int]? {
            state[index] = 1
            path.append(index)
            for dependency in calls[index].dependencies {
                if state[dependency] == 1 {
                    return Array(path[path.firstIndex(of: dependency)!...]) + [dependency]
                }
                if state[dependency] == 0, let cycle = visit(dependency) { return cycle }
            }
            path.removeLast()
            state[index] = 2
            return nil
        }
        for index in calls.indices where state[index] == 0 {
            if let cycle = visit(index) {
                throw EndpointsFileError("cycle between calls \(cycle.map { calls[$0].name }.joined(separator: " -> "))")
            }
        }
    }

    /// Every place of the response that is one reference may be null (a missing field, a
    /// failed optional call), as dotted paths for the OpenAPI schema.
    private static func nullableFields(of template: JSONValue, at path: String = "") -> [String] {
        if TemplateExpression.isExpression(template) { return path.isEmpty ? [] : [path] }
        switch template {
        case .object(let members):
            return members.flatMap { key, value in nullableFields(of: value, at: path.isEmpty ? key : path + "." + key) }
        case .string(let text):
            guard !path.isEmpty, let pieces = try? TextTemplate.pieces(of: text), pieces.count == 1,
                  case .reference = pieces[0] else { return [] }
            return [path]
        default:
            return []
        }
    }

    /// The first place of the response template (`author.name`, `tags[0]`) that holds a reference
    /// but has no value in `example`, so a mistyped reference or a stale example shows at start-up.
    /// The file's nesting is limited when it is read, so this recursion is bounded.
    private static func placeWithoutExample(_ template: JSONValue, example: JSONValue?, at path: String = "") -> String? {
        guard hasReference(template) else { return nil }
        guard let example else { return path.isEmpty ? "top level" : path }
        if TemplateExpression.isExpression(template) { return nil }
        switch (template, example) {
        case (.object(let members), .object(let exampleMembers)):
            for (key, value) in members {
                let place = path.isEmpty ? key : path + "." + key
                if let missing = placeWithoutExample(value, example: exampleMembers.first { $0.0 == key }?.1, at: place) { return missing }
            }
            return nil
        case (.array(let elements), .array(let exampleElements)) where !exampleElements.isEmpty:
            for (index, element) in elements.enumerated() {
                let place = "\(path)[\(index)]"
                if let missing = placeWithoutExample(element, example: exampleElements[min(index, exampleElements.count - 1)], at: place) {
                    return missing
                }
            }
            return nil
        case (.string, _):
            return nil
        default:
            return path.isEmpty ? "top level" : path
        }
    }

    /// Whether `template` holds a reference anywhere.
    private static func hasReference(_ template: JSONValue) -> Bool {
        switch template {
        case _ where TemplateExpression.isExpression(template): true
        case .string(let text):
            (try? TextTemplate.pieces(of: text))?.contains { if case .reference = $0 { true } else { false } } ?? false
        case .object(let members): members.contains { hasReference($0.1) }
        case .array(let elements): elements.contains(where: hasReference)
        default: false
        }
    }

    /// The documented example: the file's own, with `degraded` added to an object.
    private static func example(_ example: JSONValue?, response: JSONValue) -> [UInt8] {
        guard var example else { return [] }
        if case .object(var members) = example, case .object = response, !members.contains(where: { $0.0 == "degraded" }) {
            members.append(("degraded", .array([])))
            example = .object(members)
        }
        return example.encoded
    }
}
