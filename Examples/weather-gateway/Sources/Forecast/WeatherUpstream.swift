import Gateway

extension UpstreamDefinition {
    /// The weather service: `UPSTREAM_WEATHER_URL`, `UPSTREAM_WEATHER_TIMEOUT_MS`,
    /// `UPSTREAM_WEATHER_BEARER_TOKEN`, … (`weather-gateway --help` lists them all).
    public static let weather = UpstreamDefinition(name: "weather", defaultBaseURL: "https://weather.example/api")
}
