import HTTP1Server
import JMESPath
import JSONCoding
import UpstreamKit

/// A combined endpoint defined in the endpoints file, compiled: its parameters, its calls (each
/// knowing the calls it reads), and its response template. Serving it starts every call as soon
/// as the calls it reads have answered, then writes the template.
struct FileEndpoint: Sendable {
    let parameters: [EndpointParameter]
    /// Per parameter: whether a request may leave it out without a default (its value is then `null`).
    let mayBeAbsent: [Bool]
    /// The claims of the caller's token the templates read (`{auth.sub}`).
    let claims: [String]
    /// Whether an expression reads `auth`, all the caller's claims.
    let readsClaims: Bool
    let calls: [FileCall]
    let response: JSONTemplate
    /// Where references that find no field in their call's answer are counted and logged.
    let missingFields: MissingFieldLog

    /// The order the calls run in, none started: each request runs a copy.
    let schedule: CallSchedule

    init(
        parameters: [EndpointParameter], mayBeAbsent: [Bool], claims: [String], readsClaims: Bool = false, calls: [FileCall], response: JSONTemplate,
        missingFields: MissingFieldLog
    ) {
        self.parameters = parameters
        self.mayBeAbsent = mayBeAbsent
        self.claims = claims
        self.readsClaims = readsClaims
        self.calls = calls
        self.response = response
        self.missingFields = missingFields
        schedule = CallSchedule(dependencies: calls.map(\.dependencies), isOptional: calls.map(\.isOptional))
    }

    /// The response body for one request, or the problem a bad parameter or a failed required
    /// call answers with.
    func respond(to call: EndpointCall) async throws -> [UInt8] {
        var values = TemplateValues(
            parameters: try parameterValues(of: call), claims: claimValues(of: call), calls: Array(repeating: nil, count: calls.count))
        if readsClaims, let claims = call.identity?.claimsJSON {
            values.claimsDocument = (try? JMESPathValue(parsingJSON: claims)) ?? .null
        }
        var schedule = self.schedule
        let failure: (any Error)? = await withTaskGroup(of: (Int, Result<ExtractedValues?, any Error>).self) { group in
            // Started calls not yet sent, and calls sent in child tasks.
            var started: [(Int, Request<ExtractedValues?>)] = []
            var running = 0
            while true {
                let failure: (any Error)?
                switch schedule.next() {
                case .start(let index):
                    switch calls[index].plan(with: values) {
                    case .send(let request):
                        started.append((index, request))
                        continue
                    case .skip:
                        schedule.answered(index)
                        continue
                    case .fail(let error):
                        let result = Result<ExtractedValues?, any Error>.failure(UpstreamFailure(upstream: calls[index].upstream.name, error: error))
                        failure = finish(index, result, schedule: &schedule, values: &values, call: call)
                    }
                case .degrade(let index):
                    failure = recordDegraded(index, call: call)
                case .respond:
                    return nil
                case .awaitAnswer where started.count == 1 && running == 0:
                    // A chain of calls runs in this task, without a child task per call.
                    let (index, request) = started.removeLast()
                    let result = await send(request, for: index, call: call)
                    failure = finish(index, result, schedule: &schedule, values: &values, call: call)
                case .awaitAnswer:
                    for (index, request) in started {
                        group.addTask { (index, await send(request, for: index, call: call)) }
                    }
                    running += started.count
                    started.removeAll(keepingCapacity: true)
                    guard let (index, result) = await group.next() else { return nil }
                    running -= 1
                    failure = finish(index, result, schedule: &schedule, values: &values, call: call)
                }
                if let failure {
                    group.cancelAll()
                    return failure
                }
            }
        }
        if let failure { throw failure }
        let computed: [JMESPathValue]
        do {
            computed = try response.evaluate(values)
        } catch {
            let index = response.expressions.firstIndex { $0.place == error.place } ?? 0
            missingFields.recordFailure(ofExpression: index, error.error.description, events: call.events)
            // The detail names the member and the error, never a value of an upstream's answer.
            throw GatewayProblem(.badGateway, "the expression of response member \(error.place) failed: \(error.error.kind.rawValue) error at position \(error.error.position + 1)")
        }
        var body: [UInt8] = []
        body.reserveCapacity(512)
        response.write(values, computed: computed, degraded: call.degraded, to: &body)
        return body
    }

    /// The call's answer, or why it failed: an `UpstreamFailure`, or the `GatewayProblem` of an
    /// upstream the endpoint does not declare (which its compilation rules out).
    private func send(_ request: consuming Request<ExtractedValues?>, for index: Int, call: EndpointCall) async -> Result<ExtractedValues?, any Error> {
        do {
            return .success(try await call.upstream(calls[index].upstream).send(consume request, named: calls[index].name))
        } catch {
            return .failure(refusedLinkProblem(error, call: index) ?? error)
        }
    }

    /// For a link refused for leaving its upstream's base URL, the problem that names the
    /// upstream whose answer held the link, which is where the fault is, not the one it was
    /// followed on; nil for any other failure.
    private func refusedLinkProblem(_ error: any Error, call index: Int) -> GatewayProblem? {
        guard case .link(let template) = calls[index].target, let failure = error as? UpstreamFailure, case .refusedLink = failure.error,
              case .call(let source) = template.slots.first(where: { if case .call = $0.source { true } else { false } })?.source
        else { return nil }
        return GatewayProblem(
            .badGateway,
            "call \(calls[index].name): upstream \(calls[source].upstream.name) answered call \(calls[source].name) with a link "
                + "outside the base URL of upstream \(calls[index].upstream.name)")
    }

    /// Records how call `index` ended; returns the failure that fails the request, if any.
    private func finish(
        _ index: Int, _ result: Result<ExtractedValues?, any Error>,
        schedule: inout CallSchedule, values: inout TemplateValues, call: EndpointCall
    ) -> (any Error)? {
        var result = result
        if case .success(let extracted?) = result, !extracted.missing.isEmpty {
            result = reportingMissingFields(of: index, extracted, call: call)
        }
        switch result {
        case .success(let extracted):
            schedule.answered(index)
            values.calls[index] = extracted
            return nil
        case .failure(let failure):
            switch schedule.failed(index) {
            case .failsEndpoint: return failure
            case .degrades: return recordDegraded(index, call: call)
            }
        }
    }

    /// Counts and logs the fields call `index`'s answer lacks; its failure when the call asks
    /// for one. Out of line: answers with every field never come here.
    @inline(never)
    private func reportingMissingFields(of index: Int, _ extracted: ExtractedValues, call: EndpointCall) -> Result<ExtractedValues?, any Error> {
        missingFields.record(call: index, missing: extracted.missing, events: call.events)
        guard calls[index].failsOnMissingFields else { return .success(extracted) }
        return .failure(
            GatewayProblem(.badGateway, "upstream \(calls[index].upstream.name) answered call \(calls[index].name) without a field its templates read"))
    }

    /// Lists optional call `index` in `degraded`, in the same record as Swift endpoints'
    /// optional parts; returns the problem of a part the endpoint does not declare (which its
    /// compilation rules out).
    private func recordDegraded(_ index: Int, call: EndpointCall) -> GatewayProblem? {
        do {
            try call.recordFailure(ofOptionalPart: calls[index].name)
            return nil
        } catch {
            return error
        }
    }

    /// The claims the templates read, from the caller's verified token; `null` each without one.
    private func claimValues(of call: EndpointCall) -> ExtractedValues {
        var values = ExtractedValues(capacity: claims.count)
        guard !claims.isEmpty else { return values }
        // Read only by endpoints whose templates name a claim, as reading marks the answer as the caller's own.
        let identity = call.identity
        for name in claims {
            if let claim = identity?.claim(name) {
                values.append(text: claim.text) { $0.append(contentsOf: claim.json) }
            } else {
                values.appendNull()
            }
        }
        return values
    }

    /// The request's parameters, validated against their declarations (400 otherwise).
    private func parameterValues(of call: EndpointCall) throws(GatewayProblem) -> ExtractedValues {
        var values = ExtractedValues(capacity: parameters.count)
        for (parameter, mayBeAbsent) in zip(parameters, mayBeAbsent) {
            if mayBeAbsent && !call.carries(parameter.name) {
                values.appendNull()
                continue
            }
            switch parameter.kind {
            case .integer:
                let value = try call.integer(parameter.name)
                values.append(text: String(value)) { $0.append(contentsOf: String(value).utf8) }
            case .string, .text:
                let value = try call.string(parameter.name)
                values.append(text: value) { JSONString.append(value, to: &$0) }
            }
        }
        return values
    }
}
