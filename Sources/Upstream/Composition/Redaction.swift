import HTTPBasics

/// Renders requests for logs with every credential replaced by `<redacted>`.
///
/// A header or query parameter counts as secret when its name is a known credential field or
/// contains a word that marks one (`token`, `secret`, `key`, `auth`, …); better one harmless value
/// hidden than one token printed.
enum Redaction {
    static let placeholder = "<redacted>"

    static func isSecret(name: some StringProtocol) -> Bool {
        if name.equalsIgnoringASCIICase("cookie") || name.equalsIgnoringASCIICase("set-cookie") { return true }
        // Compared as bytes, ignoring ASCII case, without lowering a copy: the cache asks this
        // of every field of every call.
        var name = String(name)
        return name.withUTF8 { bytes in secretWords.contains { Self.contains($0, in: bytes) } }
    }

    private static let secretWords: [[UInt8]] = ["auth", "token", "secret", "key", "session", "password", "passwd", "signature", "credential", "sig"]
        .map { Array($0.utf8) }

    /// Whether `bytes` holds `word` (lower case) in any ASCII case.
    private static func contains(_ word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= word.count else { return false }
        for start in 0...(bytes.count - word.count) {
            var index = 0
            while index < word.count, bytes[start + index] | 0x20 == word[index] { index += 1 }
            if index == word.count { return true }
        }
        return false
    }

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
