/// Renders coding paths as `cards[3].code` for error messages.
enum CodingPathRendering {
    /// Keys longer than this are shown as `<key>`: model properties are short, input data may not be.
    private static let longestShownKey = 64

    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += isIdentifierLike(key.stringValue) ? key.stringValue : "<key>"
            }
        }
        return text
    }

    /// Whether a key is safe to show: identifier characters only, so it cannot carry arbitrary input text.
    private static func isIdentifierLike(_ key: String) -> Bool {
        var length = 0
        for byte in key.utf8 {
            length += 1
            let isLetterOrDigit = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            guard isLetterOrDigit || byte == 0x5F || byte == 0x2D, length <= longestShownKey else { return false }
        }
        return length > 0
    }
}
