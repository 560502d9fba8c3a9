import HTTPBasics

/// One combined endpoint: where it is served, how it is documented, and the handler that
/// builds its body from upstream calls.
///
/// The gateway serves, documents (OpenAPI) and measures every endpoint of its table the same
/// way, so adding one is a value, not plumbing:
///
/// ```swift
/// static let forecast = Endpoint(
///     "/v1/forecast/:city", summary: "Forecast with weather alerts",
///     parameters: [.path("city", "city name")], optionalParts: ["alerts"], example: ForecastResponse.example
/// ) { call in
///     let city = PercentEncoding.encode(try call.string("city"))
///     async let alerts = call.optional("alerts") { try await call.upstream(.alerts).get("/alerts/\(city)", as: [Alert].self) }
///     let forecast = try await call.upstream(.weather).get("/forecast/\(city)", as: Forecast.self)
///     return ForecastResponse(forecast: forecast, alerts: await alerts, degraded: call.degraded)
/// }
/// ```
struct Endpoint: Sendable {
    let method: HTTPMethod
    /// The route, with `:name` for path parameters: `/v1/people/:id`.
    let path: String
    let summary: String
    let parameters: [EndpointParameter]
    /// Names of the parts that may fail without failing the request, in the order they are
    /// listed in `degraded`.
    let optionalParts: [String]
    /// A successful body, encoded, for the OpenAPI document.
    let example: [UInt8]
    /// Runs the handler and encodes what it returns.
    let respond: @Sendable (EndpointCall) async throws -> [UInt8]

    init<Body: Encodable & Sendable>(
        _ path: String,
        summary: String,
        parameters: [EndpointParameter] = [],
        optionalParts: [String] = [],
        example: Body,
        handler: @escaping @Sendable (EndpointCall) async throws -> Body
    ) {
        self.method = .get
        self.path = path
        self.summary = summary
        self.parameters = parameters
        self.optionalParts = optionalParts
        self.example = (try? ResponseEncoding.encode(example)) ?? []
        self.respond = { call in try ResponseEncoding.encode(try await handler(call)) }
    }

    /// The declared parameter called `name`.
    func parameter(named name: String) -> EndpointParameter? {
        parameters.first { $0.name == name }
    }
}
