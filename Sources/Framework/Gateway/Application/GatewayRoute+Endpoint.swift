import CallerIdentity
import HTTP1Server
import HTTPBasics

extension GatewayRoute {
    /// Serves a combined endpoint: runs its handler with an `EndpointCall`, answers JSON with
    /// `X-Gateway-Completed` and the caching its parts allow, and maps every failure to problem+json.
    ///
    /// - Parameter answers: where fresh combined answers are kept and reused; nil keeps none.
    /// - Parameter events: where the endpoint's warnings go.
    /// - Parameter admission: the caller's token and rate limit, checked before anything else, answers included.
    init(endpoint: Endpoint, upstreams: UpstreamRegistry, answers: CombinedAnswers?, events: EventLog, admission: RouteAdmission) {
        documentation = RouteDocumentation(
            endpoint: endpoint, authenticates: admission.authenticator != nil || admission.signIn != nil, limited: admission.rateLimiter != nil)
        handler = { request, match, scope in
            let identity: Identity?
            var userAccessToken: String?
            switch await admission.decide(request, scope: scope) {
            case .admitted(let admitted): identity = admitted
            case .signedIn(let signedIn, let token):
                identity = signedIn
                userAccessToken = token
            case .refused(let answer): return answer
            }
            if let answers, let answer = answers.answer(to: request, personal: identity != nil) { return answer }
            let call = EndpointCall(
                endpoint: endpoint, request: request, match: match, scope: scope, upstreams: upstreams, events: events, identity: identity,
                userAccessToken: userAccessToken)
            var headers = HTTPHeaders()
            // Room for the fields added on the way out (freshness, Content-Type, X-Request-ID,
            // Vary), so that none of them grows the list.
            headers.reserveCapacity(6)
            if let streamed = endpoint.streamed {
                return await Self.streamedAnswer(streamed, call: call, request: request)
            }
            do {
                let body = try await endpoint.respond(call)
                // A handler may finish with parts cut short by the client leaving; nobody reads the answer then.
                try Task.checkCancellation()
                let degraded = call.degraded
                if !degraded.isEmpty {
                    scope.degraded = degraded
                    scope.route?.recordDegraded(degraded)
                }
                headers.add("X-Gateway-Completed", degraded.isEmpty ? "true" : "false")
                // Read after the handler: whether it looked at the caller's fields or claims.
                let personal = identity != nil || call.readClientInput
                let freshness = CombinedFreshness.addHeaders(
                    for: scope.upstreamCalls, degraded: !degraded.isEmpty, personal: personal, to: &headers)
                if let answers, let freshness, !call.readClientInput {
                    answers.keep(body, status: endpoint.successStatus, for: request, freshFor: freshness)
                }
                return .json(body, status: endpoint.successStatus, headers: headers)
            } catch {
                headers.add("X-Gateway-Completed", "false")
                return GatewayProblem(error).response(instance: request.path, headers: headers)
            }
        }
    }
}

extension GatewayRoute {
    /// A streamed endpoint's answer: the stream its handler opens, or the problem it failed with.
    /// Never inlined: JSON endpoints, the usual kind, keep a frame without it.
    @inline(never)
    static func streamedAnswer(_ streamed: Endpoint.StreamedAnswer, call: EndpointCall, request: HTTPRequest) async -> HTTPResponse {
        do {
            let stream = try await streamed.open(call)
            return HTTPResponse(status: .ok, headers: ["Content-Type": streamed.contentType, "Cache-Control": "no-store"], bodyStream: stream)
        } catch {
            return GatewayProblem(error).response(instance: request.path)
        }
    }
}

extension RouteDocumentation {
    /// A combined endpoint's documentation: its parameters, its example, and the errors every
    /// combined endpoint may answer (401 too when it `authenticates`, 403 when it requires scopes,
    /// 429 when it is `limited`).
    init(endpoint: Endpoint, authenticates: Bool = false, limited: Bool = false) {
        var responses = [
            endpoint.streamed.map { streamed in
                DocumentedResponse(status: 200, description: "Streamed: each piece sent as it is written", contentType: streamed.contentType)
            } ?? DocumentedResponse(
                status: endpoint.successStatus.code, description: "Combined result; optional parts that failed are null and listed in degraded",
                example: endpoint.example, typedExample: endpoint.typedExample, nullableFields: endpoint.optionalParts + endpoint.nullableFields,
                computedFields: endpoint.computedFields)
        ]
        if endpoint.requestExample != nil {
            responses.append(.problem(400, "A parameter or the request body is missing or invalid"))
        } else if !endpoint.parameters.isEmpty {
            responses.append(.problem(400, "A parameter is missing or out of range"))
        }
        if authenticates {
            responses.append(.problem(401, "The bearer token is missing or invalid (WWW-Authenticate says why)"))
            let scopes = endpoint.authentication.scopes
            if !scopes.isEmpty {
                responses.append(.problem(403, "The token does not grant every scope this route requires: \(scopes.joined(separator: " "))"))
            }
        }
        if limited {
            responses.append(.problem(429, "The caller has made more requests than the endpoint allows (Retry-After, RateLimit)"))
        }
        responses += [
            .problem(404, "The primary upstream has no such resource"),
            .problem(502, "An upstream failed: refused, reset, 5xx, invalid or oversized answer"),
            .problem(503, "An upstream is rate limited (Retry-After) or its circuit is open"),
            .problem(504, "An upstream did not answer in time"),
        ]
        self.init(
            method: endpoint.method, path: endpoint.path, summary: endpoint.summary,
            parameters: endpoint.parameters, responses: responses, requestBody: endpoint.requestExample)
    }
}
