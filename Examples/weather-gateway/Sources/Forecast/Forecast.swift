import Gateway

/// What the client gets from `GET /v1/forecast/:city`; the framework adds `degraded`.
public struct Forecast: Encodable, Sendable, Equatable {
    let city: String
    let temperature: Double
    let conditions: String
    /// The alerts' titles; null when the alerts could not be fetched.
    @Nullable var alerts: [String]?

    /// Pure merge of the two answers; `alerts` is nil when that optional part failed.
    public init(current: CurrentWeather, alerts: WeatherAlerts?) {
        city = current.city
        temperature = current.temperature
        conditions = current.conditions
        self.alerts = alerts?.alerts.map(\.title)
    }

    static let example = Forecast(
        current: CurrentWeather(city: "oslo", temperature: 3.5, conditions: "snow"),
        alerts: WeatherAlerts(alerts: [.init(title: "Ice on roads")]))
}
