/// A rate limit that is not written as `20/s`, `600/min` or `1000/h`, optionally followed by
/// ` burst N` (each number 1…1000000), nor `off`.
public struct RateLimitSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The text that could not be read.
    public let text: String

    init(_ text: String) {
        self.text = text
    }

    /// What is wrong, with the text (its first 64 characters) and how to write a limit.
    public var description: String {
        "\"\(text.prefix(64))\" is not a rate limit: write 20/s, 600/min or 1000/h, optionally followed by \" burst N\", or off"
    }
}
