import HTTPBasics

/// Renders requests for logs with every credential replaced by `<redacted>`.
///
/// A header or query parameter counts as secret when its name is a known credential field or
/// contains a word that marks one (`token`, `secret`, `key`, `auth`, …); better one harmless value
/// hidden than one token printed.
enum Redaction {
    static let placeholder = "<redacted>"

    static func isSecret(name: some StringProtocol) -> Bool {
        let lowered = name.lowercased()
        if lowered == "cookie" || lowered == "set-cookie" { return true }
        return secretWords.contains { lowered.contains($0) }
    }

    private static let secretWords = ["auth", "token", "secret", "key", "session", "password", "passwd", "signature", "credential", "sig"]

    /// The target with the values of secret query parameters replaced.
    static func target(_ target: String) -> String {
        guard let question = target.firstIndex(of: "?") else { return target }
        let parameters = target[target.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "="), isSecret(name: pair[..<equals]) else { return String(pair) }
            return pair[..<equals] + "=" + placeholder
        }
        return target[...question] + parameters.joined(separator: "&")
    }

    /// `Name: value` lines joined by `, `, secret values replaced.
    static func headers(_ headers: HTTPHeaders) -> String {
        headers.map { "\($0.name): \(isSecret(name: $0.name) ? placeholder : $0.value)" }.joined(separator: ", ")
    }

    /// One log line for a request.
    static func describe(_ request: TransportRequest) -> String {
        "\(request.method) \(request.origin)\(target(request.target)) [\(headers(request.headers))]"
    }
}
