/// Why a string is not usable as an upstream's base URL.
public struct InvalidBaseURL: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public var description: String { "invalid base URL: \(reason)" }
}
