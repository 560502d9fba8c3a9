import HTTPBasics

/// Renders requests for logs with every credential replaced by `<redacted>`.
///
/// A header or query parameter counts as secret when its name contains a word that marks a
/// credential (`cookie`, `token`, `secret`, `key`, `auth`, …); better one harmless value hidden
/// than one token printed.
enum Redaction {
    static let placeholder = "<redacted>"

    static func isSecret(name: some StringProtocol) -> Bool {
        // Compared as bytes, ignoring ASCII case, without lowering a copy, and each position only
        // against the words starting with its letter: the cache asks this of every field of every call.
        var name = String(name)
        return name.withUTF8 { bytes -> Bool in
            for start in bytes.indices {
                let words: [[UInt8]]
                switch bytes[start] | 0x20 {
                case UInt8(ascii: "a"): words = Self.wordsStartingWithA
                case UInt8(ascii: "c"): words = Self.wordsStartingWithC
                case UInt8(ascii: "k"): words = Self.wordsStartingWithK
                case UInt8(ascii: "p"): words = Self.wordsStartingWithP
                case UInt8(ascii: "s"): words = Self.wordsStartingWithS
                case UInt8(ascii: "t"): words = Self.wordsStartingWithT
                default: continue
                }
                if words.contains(where: { Self.holds($0, in: bytes, at: start) }) { return true }
            }
            return false
        }
    }

    // `cookie` covers `Cookie` and `Set-Cookie`; `sig` covers `signature`.
    private static let wordsStartingWithA = [Array("auth".utf8)]
    private static let wordsStartingWithC = [Array("cookie".utf8), Array("credential".utf8)]
    private static let wordsStartingWithK = [Array("key".utf8)]
    private static let wordsStartingWithP = [Array("password".utf8), Array("passwd".utf8)]
    private static let wordsStartingWithS = [Array("secret".utf8), Array("session".utf8), Array("sig".utf8)]
    private static let wordsStartingWithT = [Array("token".utf8)]

    /// Whether `bytes` holds `word` (lower case) at `start`, in any ASCII case.
    private static func holds(_ word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard bytes.count - start >= word.count else { return false }
        for index in word.indices where bytes[start + index] | 0x20 != word[index] { return false }
        return true
    }

    /// The target with the values of secret query parameters replaced by `placeholder`.
    static func target(_ target: String, placeholder: String = placeholder) -> String {
        // Found among the bytes: a Character search would break graphemes all along the path.
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
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
