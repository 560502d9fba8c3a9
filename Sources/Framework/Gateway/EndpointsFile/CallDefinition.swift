import HTTPBasics
import UpstreamKit

/// One entry of an endpoint's `calls`, checked and compiled into a `FileCall`.
enum CallDefinition {
    private static let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete]

    static func compile(
        name: String, _ value: JSONValue, upstreams: [UpstreamDefinition], references: inout ReferenceTable
    ) throws(EndpointsFileError) -> FileCall {
        guard Reference.isName(name) else {
            throw EndpointsFileError("a call name is 1 to 64 letters, digits, _ or -")
        }
        // The endpoint puts `call name:` before every error of the call.
        let object = try FileObject(value, place: "", fields: ["upstream", "path", "query", "link", "method", "body", "optional", "missing_fields", "cache"])
        let upstreamName = try object.requiredString("upstream")
        guard let upstream = upstreams.first(where: { $0.name == upstreamName }) else {
            throw .unknownUpstream(upstreamName, among: upstreams)
        }
        let method = HTTPMethod(rawValue: try object.string("method") ?? "GET")
        guard methods.contains(method) else {
            throw EndpointsFileError("method must be one of \(methods.map(\.rawValue).joined(separator: ", "))")
        }
        let target: FileCall.Target
        switch (try object.string("path"), try object.string("link")) {
        case (let path?, nil):
            target = try pathTarget(path, query: try object.members("query"), references: &references)
        case (nil, let link?):
            guard object["query"] == nil else { throw EndpointsFileError("query goes with path; a link carries its own") }
            target = .link(try TextTemplate(parsing: link, references: &references))
        default:
            throw EndpointsFileError("give either path or link")
        }
        var body: JSONTemplate?
        if let bodyTemplate = object["body"] {
            guard method != .get else { throw EndpointsFileError("a GET call has no body") }
            body = try JSONTemplate(bodyTemplate, references: &references)
        }
        var cache: CacheSettings?
        if let definition = object["cache"] { cache = try CacheDefinition.compile(definition, place: "cache") }
        let missingFields = try object.string("missing_fields") ?? "null"
        guard missingFields == "null" || missingFields == "fail" else {
            throw EndpointsFileError("missing_fields must be \"null\" or \"fail\"")
        }
        return FileCall(
            name: name, upstream: upstream, method: method, target: target, body: body, isOptional: try object.bool("optional") ?? false,
            failsOnMissingFields: missingFields == "fail", cache: cache)
    }

    private static func pathTarget(
        _ path: String, query: [(String, JSONValue)], references: inout ReferenceTable
    ) throws(EndpointsFileError) -> FileCall.Target {
        guard path.first == "/" else { throw EndpointsFileError("path must start with / (it goes below the upstream's base URL)") }
        guard !path.contains(where: { $0 == "?" || $0 == "#" }) else {
            throw EndpointsFileError("path may not hold ? or #; put query parameters in query")
        }
        var segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        let trailingSlash = segments.last?.isEmpty == true && segments.count > 1 || path == "/"
        if segments.last?.isEmpty == true { segments.removeLast() }
        var templates: [TextTemplate] = []
        for segment in segments {
            guard !segment.isEmpty, !DotSegmentScan.holdsDotSegment(segment.utf8) else {
                throw EndpointsFileError("path has an empty, . or .. segment")
            }
            templates.append(try TextTemplate(parsing: String(segment), references: &references))
        }
        var items: [(name: String, value: FileCall.QueryValue)] = []
        for (name, value) in query {
            if let expression = try TemplateExpression.text(of: value) {
                items.append((name, .expression(try references.expression(expression, at: "query \(name)"))))
                continue
            }
            guard case .string(let text) = value else {
                throw EndpointsFileError("query \(name) must be a string template or {\"\(TemplateExpression.key)\": …}")
            }
            items.append((name, .text(try TextTemplate(parsing: text, references: &references))))
        }
        return .path(segments: templates, trailingSlash: trailingSlash, query: items)
    }
}
