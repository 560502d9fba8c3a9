/// An upstream an endpoint may call, declared once in code: its name and its default base URL.
///
/// The name picks its environment variables (`UPSTREAM_<NAME>_URL`, `…_TIMEOUT_MS`, …), labels its
/// metrics and appears in error details such as "upstream swapi answered 503".
struct UpstreamDefinition: Hashable, Sendable {
    let name: String
    let defaultBaseURL: String
    let defaultTimeout: Duration

    init(name: String, defaultBaseURL: String, defaultTimeout: Duration = .seconds(5)) {
        self.name = name
        self.defaultBaseURL = defaultBaseURL
        self.defaultTimeout = defaultTimeout
    }

    /// The prefix of this upstream's environment variables: `UPSTREAM_SWAPI_`.
    var environmentPrefix: String {
        let letters = name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return "UPSTREAM_" + String(letters) + "_"
    }
}
