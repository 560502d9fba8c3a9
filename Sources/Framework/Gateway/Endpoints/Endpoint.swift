import HTTPBasics

/// One combined endpoint: where it is served, how it is documented, and the handler that
/// builds its body from upstream calls.
///
/// The gateway serves, documents (OpenAPI) and measures every endpoint of its catalog the same
/// way, so adding one is a value, not plumbing (the whole example, with tests, is
/// `Examples/weather-gateway`):
///
/// ```swift
/// extension Endpoint {
///     static let forecast = Endpoint(
///         "/v1/forecast/:city", summary: "Current weather and alerts for a city",
///         parameters: [.path("city", "the city's name")], upstreams: [.weather], optionalParts: ["alerts"],
///         example: Forecast.example
///     ) { call in
///         let city = try call.string("city")
///         let weather = try call.upstream(.weather)
///         async let alerts = call.optional("alerts") { try await weather.get("alerts", city, as: WeatherAlerts.self) }
///         let current = try await weather.get("current", city, as: CurrentWeather.self)
///         return Forecast(current: current, alerts: try await alerts)
///     }
/// }
/// ```
///
/// A thrown `UpstreamFailure` or `GatewayProblem` becomes the matching problem+json answer; a
/// part run through `call.optional` turns into `null` and an entry in `degraded` instead. When
/// the endpoint declares optional parts, the framework adds `"degraded":[…]` as the last member
/// of the returned object and answers `X-Gateway-Completed: false` when any failed.
public struct Endpoint: Sendable {
    /// The method it answers; a GET endpoint answers HEAD too.
    public let method: HTTPMethod
    /// The route, with `:name` for path parameters: `/v1/people/:id`.
    public let path: String
    /// One line for `GET /` and OpenAPI.
    public let summary: String
    /// The status of a successful answer: 200 unless declared (201 for a creating POST, say).
    let successStatus: HTTPStatus
    /// Whether callers need a bearer token when the gateway has a key set.
    let authentication: Authentication
    /// How many requests each caller may make: the gateway's `RATE_LIMIT` unless declared.
    let rateLimit: RateLimit
    let parameters: [EndpointParameter]
    /// The upstreams the handler may call; each must be in the catalog.
    let upstreams: [String]
    /// Names of the parts that may fail without failing the request, in the order they are
    /// listed in `degraded`.
    let optionalParts: [String]
    /// Fields below the top level that may be null, as dotted paths (`homeworld.population`),
    /// for the OpenAPI schema; optional parts may be null already.
    let nullableFields: [String]
    /// Members of an endpoints-file response computed by a JMESPath expression: dotted path to
    /// the expression, said in the OpenAPI schema's descriptions.
    var computedFields: [String: String] = [:]
    /// A successful body, encoded, for the OpenAPI document; nil when it cannot be encoded as the
    /// handler's answers are, which the catalog check reports.
    let example: [UInt8]?
    /// The same example with each number typed by its Swift type, from which OpenAPI's schema is inferred.
    let typedExample: JSONValue?
    /// An example of the JSON body the handler reads with `call.body(as:)`, for OpenAPI.
    let requestExample: JSONValue?
    /// For an endpoint of the endpoints file, its references that found no field; nil for others.
    let missingFields: MissingFieldLog?
    /// Runs the handler and encodes what it returns, with `degraded` when there are optional parts.
    let respond: @Sendable (EndpointCall) async throws -> [UInt8]
    /// For an endpoint that answers with a stream, its media type and the handler that opens it;
    /// nil for one that answers JSON.
    let streamed: StreamedAnswer?

    /// What a streamed endpoint answers with.
    struct StreamedAnswer: Sendable {
        let contentType: String
        let open: @Sendable (EndpointCall) async throws -> HTTPBodyStream
    }

    /// Declares an endpoint that answers JSON: the value its handler returns, encoded.
    ///
    /// - Parameters:
    ///   - method: GET unless given; POST, PUT, PATCH and DELETE handlers read a JSON body with `call.body(as:)`.
    ///   - path: the route, with `:name` for each path parameter.
    ///   - summary: one line for `GET /` and OpenAPI.
    ///   - successStatus: the status of a successful answer.
    ///   - authentication: `.none` lets anyone call it when the gateway checks tokens (`AUTH_JWKS_*`);
    ///     by default a valid bearer token is required then, and the handler reads it as `call.identity`;
    ///     `.required(scopes: ["menu:read"])` requires a token that grants those scopes too (else 403).
    ///   - rateLimit: `.limit(RateLimitPolicy(20, per: .second))` for a limit of its own per caller, `.off` for none;
    ///     by default the gateway's `RATE_LIMIT`.
    ///   - parameters: every path and query parameter the handler reads, validated from this declaration.
    ///   - upstreams: every upstream the handler calls through `call.upstream(_:)`.
    ///   - optionalParts: the names the handler passes to `call.optional(_:_:)`, in `degraded` order.
    ///   - nullableFields: dotted paths below the top level that may be null, for OpenAPI, beyond
    ///     the `@Nullable` members of `example`'s type, which are found by themselves.
    ///   - requestExample: for an endpoint that reads a JSON body, an example of it, for OpenAPI.
    ///   - example: a successful body, for OpenAPI; an object when there are optional parts.
    ///   - handler: builds the body of one request; runs once per request.
    public init<Body: Encodable & Sendable>(
        method: HTTPMethod = .get,
        _ path: String,
        summary: String,
        successStatus: HTTPStatus = .ok,
        authentication: Authentication = .required,
        rateLimit: RateLimit = .default,
        parameters: [EndpointParameter] = [],
        upstreams: [UpstreamDefinition],
        optionalParts: [String] = [],
        nullableFields: [String] = [],
        requestExample: (any Encodable & Sendable)? = nil,
        example: Body,
        handler: @escaping @Sendable (EndpointCall) async throws -> Body
    ) {
        self.method = method
        self.path = path
        self.summary = summary
        self.successStatus = successStatus
        self.authentication = authentication
        self.rateLimit = rateLimit
        self.parameters = parameters
        self.upstreams = upstreams.map(\.name)
        self.optionalParts = optionalParts
        let typed = try? TypedValueEncoder.encodeFindingNullable(example)
        self.nullableFields = nullableFields + (typed?.nullableFields ?? [])
        self.requestExample = requestExample.flatMap { try? TypedValueEncoder.encode($0) }
        self.missingFields = nil
        streamed = nil
        if optionalParts.isEmpty {
            self.example = try? ResponseEncoding.encode(example)
            self.typedExample = typed?.value
            self.respond = { call in try ResponseEncoding.encode(try await handler(call)) }
        } else {
            self.example = try? ResponseEncoding.encode(example, degraded: [])
            if case .object(let members) = typed?.value {
                self.typedExample = .object(members + [("degraded", .array([]))])
            } else {
                self.typedExample = nil
            }
            self.respond = { call in
                let body = try await handler(call)
                return try ResponseEncoding.encode(body, degraded: call.degraded)
            }
        }
    }
}

extension Endpoint {
    /// An endpoint that answers with a body it writes piece by piece, or passes on from an
    /// upstream, as it goes: events merged from several upstream event streams, a large export.
    ///
    /// `handler` runs before the answer's head is sent, so it may still fail with a problem (an
    /// upstream that cannot be reached, a bad parameter); the stream it returns is then read at
    /// the client's pace and sent chunked (with `Content-Length` when it knows its length), each
    /// piece as soon as it is written. A client that goes away cancels it. Such answers are never
    /// stored or compressed, and `text/event-stream` is the usual `contentType`.
    ///
    /// ```swift
    /// extension Endpoint {
    ///     static let ticks = Endpoint(
    ///         "/v1/ticks", summary: "Three numbered events, one per upstream clock tick",
    ///         upstreams: [.clock], contentType: "text/event-stream"
    ///     ) { call in
    ///         let clock = try call.upstream(.clock)
    ///         let ticks = try await clock.stream("ticks")
    ///         return .writing { writer in
    ///             var count = 0
    ///             while count < 3, let piece = try await ticks.next() {
    ///                 count += 1
    ///                 try await writer.write(Array("id: \(count)\ndata: ".utf8) + piece + Array("\n\n".utf8))
    ///             }
    ///             ticks.cancel()
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - method: as for a JSON endpoint.
    ///   - path: as for a JSON endpoint.
    ///   - summary: as for a JSON endpoint.
    ///   - authentication: as for a JSON endpoint.
    ///   - rateLimit: as for a JSON endpoint.
    ///   - parameters: as for a JSON endpoint.
    ///   - upstreams: as for a JSON endpoint.
    ///   - contentType: the answer's `Content-Type`; its OpenAPI entry documents the media type, without a schema.
    ///   - handler: opens the answer's stream for one request; runs once per request.
    public init(
        method: HTTPMethod = .get,
        _ path: String,
        summary: String,
        authentication: Authentication = .required,
        rateLimit: RateLimit = .default,
        parameters: [EndpointParameter] = [],
        upstreams: [UpstreamDefinition],
        contentType: String,
        stream handler: @escaping @Sendable (EndpointCall) async throws -> HTTPBodyStream
    ) {
        self.method = method
        self.path = path
        self.summary = summary
        successStatus = .ok
        self.authentication = authentication
        self.rateLimit = rateLimit
        self.parameters = parameters
        self.upstreams = upstreams.map(\.name)
        optionalParts = []
        nullableFields = []
        requestExample = nil
        missingFields = nil
        example = nil
        typedExample = nil
        respond = { _ in [] }
        streamed = StreamedAnswer(contentType: contentType, open: handler)
    }
}
