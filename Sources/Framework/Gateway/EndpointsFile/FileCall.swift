import HTTPBasics
import JMESPath
import JSONCoding
import UpstreamKit

/// One upstream call of a file-defined endpoint, compiled: where it goes, what it sends, which
/// calls it waits for, and which paths of its answer the templates read.
struct FileCall: Sendable {
    enum Target: Sendable {
        /// Below the upstream's base URL: one template per segment, each substituted value kept
        /// inside its segment by `Path`.
        case path(segments: [TextTemplate], trailingSlash: Bool, query: [(name: String, value: QueryValue)])
        /// An absolute link from an earlier answer, followed only under the upstream's base URL.
        case link(TextTemplate)
    }

    let name: String
    let upstream: UpstreamDefinition
    let method: HTTPMethod
    let target: Target
    let body: JSONTemplate?
    let isOptional: Bool
    /// Whether an answer without a field a template reads fails the call (`"missing_fields": "fail"`)
    /// instead of giving `null`.
    let failsOnMissingFields: Bool
    /// How the shared cache treats this call, instead of its upstream's settings; nil: the upstream's.
    let cache: CacheSettings?
    /// The calls whose answers this one's path, query, link or body read: it starts after them.
    let dependencies: [Int]
    /// The paths of this call's answer that the endpoint's templates read, filled in once every
    /// template is compiled.
    var extractions: [Extraction] = []
    /// Whether an expression reads this call's whole answer, filled in with `extractions`.
    var keepsDocument = false

    init(
        name: String, upstream: UpstreamDefinition, method: HTTPMethod, target: Target, body: JSONTemplate?, isOptional: Bool,
        failsOnMissingFields: Bool = false, cache: CacheSettings? = nil
    ) {
        self.name = name
        self.upstream = upstream
        self.method = method
        self.target = target
        self.body = body
        self.isOptional = isOptional
        self.failsOnMissingFields = failsOnMissingFields
        self.cache = cache
        var slots: [ValueSlot] = body?.slots ?? []
        switch target {
        case .path(let segments, _, let query):
            slots += segments.flatMap(\.slots)
            for case .text(let text) in query.map(\.value) { slots += text.slots }
        case .link(let link):
            slots += link.slots
        }
        var dependencies = body?.calls ?? []
        if case .path(_, _, let query) = target {
            for case .expression(let expression) in query.map(\.value) { dependencies += expression.calls }
        }
        for slot in slots {
            if case .call(let call) = slot.source, !dependencies.contains(call) { dependencies.append(call) }
        }
        self.dependencies = Set(dependencies).sorted()
    }

    /// A query parameter's value: a text template, or an expression (`{"$jmespath": "…"}`).
    enum QueryValue: Sendable {
        case text(TextTemplate)
        case expression(TemplateExpression)
    }

    /// What to do for this call once its dependencies have answered.
    enum Plan {
        case send(Request<ExtractedValues?>)
        /// Its link is `null` or empty: nothing to follow, so its value is `null`.
        case skip
        case fail(UpstreamError)
    }

    /// The request for this call with `values` put into its templates.
    func plan(with values: TemplateValues) -> Plan {
        let destination: Request<ExtractedValues?>.Destination
        var query: [QueryItem] = []
        switch target {
        case .path(let segments, let trailingSlash, let queryTemplates):
            do {
                destination = .path(try Path(segments: segments.map { $0.render(values) }, trailingSlash: trailingSlash))
            } catch {
                return .fail(.invalidRequest(reason: "a path segment is \(error)"))
            }
            for (name, value) in queryTemplates {
                let template: TextTemplate
                switch value {
                case .text(let text): template = text
                case .expression(let expression):
                    let computed: JMESPathValue
                    do {
                        computed = try expression.evaluate(values)
                    } catch {
                        return .fail(.invalidRequest(reason: "the expression of query \(name) failed: \(error)"))
                    }
                    // `null` is not sent; a string goes as it is, anything else as its JSON.
                    switch computed {
                    case .null: continue
                    case .string(let string): query.append(QueryItem(name, string))
                    default: query.append(QueryItem(name, computed.json))
                    }
                    continue
                }
                // A query value that is one absent reference (an optional parameter left out) is not sent.
                if let slot = template.soleValue, values.text(slot) == nil { continue }
                query.append(QueryItem(name, template.render(values)))
            }
        case .link(let template):
            let link = template.render(values)
            guard !link.isEmpty else { return .skip }
            destination = .link(link)
        }
        var headers: HTTPHeaders = ["Accept": "application/json"]
        var bytes: [UInt8]?
        if let body {
            var written: [UInt8] = []
            let computed: [JMESPathValue]
            do {
                computed = try body.evaluate(values)
            } catch {
                return .fail(.invalidRequest(reason: "the body's expression at \(error.place) failed: \(error.error)"))
            }
            body.write(values, computed: computed, to: &written)
            bytes = written
            headers.add("Content-Type", "application/json")
        }
        let extractions = self.extractions, keepsDocument = self.keepsDocument
        var request = Request<ExtractedValues?>(method, destination, query: query, headers: headers, body: bytes) { response throws(UpstreamError) in
            // An answer nobody reads is not parsed, so a call may answer anything (a 204, say).
            guard !extractions.isEmpty || keepsDocument else { return nil }
            do {
                return try ExtractedValues(extracting: extractions, from: response.body, keepingDocument: keepsDocument)
            } catch {
                throw .decodingFailed(reason: "body is not valid JSON: \(error)")
            }
        }
        request.cache = cache
        return .send(request)
    }
}
