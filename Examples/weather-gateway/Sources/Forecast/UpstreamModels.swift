/// `GET {base}/current/{city}`: only the fields the gateway uses.
public struct CurrentWeather: Decodable, Sendable {
    let city: String
    let temperature: Double
    let conditions: String
}

/// `GET {base}/alerts/{city}`.
public struct WeatherAlerts: Decodable, Sendable {
    struct Alert: Decodable, Sendable {
        let title: String
    }

    let alerts: [Alert]
}
