import Gateway

extension Endpoint {
    /// `GET /v1/forecast/:city`: the current weather (required) and the alerts (optional), fetched at once.
    public static let forecast = Endpoint(
        "/v1/forecast/:city",
        summary: "Current weather and alerts for a city",
        parameters: [.path("city", "the city's name, such as oslo")],
        upstreams: [.weather],
        optionalParts: ["alerts"],
        example: Forecast.example
    ) { call in
        let city = try call.string("city")
        let weather = try call.upstream(.weather)
        async let alerts = call.optional("alerts") { try await weather.get("alerts", city, as: WeatherAlerts.self) }
        let current = try await weather.get("current", city, as: CurrentWeather.self)
        return Forecast(current: current, alerts: try await alerts)
    }
}

extension GatewayCatalog {
    /// Everything this gateway serves.
    public static let weather = GatewayCatalog(upstreams: [.weather], endpoints: [.forecast])
}
