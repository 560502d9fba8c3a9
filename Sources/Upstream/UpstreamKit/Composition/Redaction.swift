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
        return name.withUTF8 { isSecret(bytes: $0) }
    }

    /// `isSecret(name:)` of a name's UTF-8 bytes.
    private static func isSecret(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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

    /// The target (or absolute URL) with the values of secret query parameters replaced by
    /// `placeholder`. Read as bytes: a traced call pays this scan, and a Character walk would
    /// break graphemes all along the URL.
    static func target(_ target: String, placeholder: String = placeholder) -> String {
        var bytesOfTarget = target
        return bytesOfTarget.withUTF8 { bytes -> String in
            guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return target }
            var redacted: [UInt8] = []
            redacted.reserveCapacity(bytes.count + 16)
            redacted.append(contentsOf: bytes[...question])
            var start = question + 1
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                let pair = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if let equals = pair.firstIndex(of: UInt8(ascii: "=")), isSecret(bytes: UnsafeBufferPointer(rebasing: pair[..<equals])) {
                    redacted.append(contentsOf: pair[...equals])
                    redacted.append(contentsOf: placeholder.utf8)
                } else {
                    redacted.append(contentsOf: pair)
                }
                if end < bytes.count { redacted.append(UInt8(ascii: "&")) }
                start = end + 1
            }
            return String(decoding: redacted, as: UTF8.self)
        }
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
