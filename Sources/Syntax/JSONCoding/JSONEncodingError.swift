/// Why a value could not be encoded as JSON.
public struct JSONEncodingError: Error, Sendable, CustomStringConvertible {
    /// The category of an encoding failure.
    public enum Reason: Sendable, Hashable {
        /// A floating-point value is NaN or infinite, which JSON cannot represent.
        case nonConformingNumber
        /// The top-level value encoded nothing at all.
        case emptyValue
        /// Containers were used out of order: the encoder writes bytes as it goes, so a container
        /// cannot be written to after a sibling or its parent has moved on.
        case invalidContainerUse
        /// The model asked for an encoder feature this encoder does not offer.
        case unsupported
        /// The model's own `encode(to:)` threw.
        case invalidValue
    }

    /// The category of the failure.
    public let reason: Reason
    /// A fixed, human-readable explanation.
    public let message: String
    /// Where in the value the failure happened, such as `sections[0].items`; empty for the top level.
    public let codingPath: String

    /// Creates an error; the encoder builds these, and tests may too.
    public init(reason: Reason, message: String, codingPath: String = "") {
        self.reason = reason
        self.message = message
        self.codingPath = codingPath
    }

    public var description: String {
        let location = codingPath.isEmpty ? "at the top level" : "at \(codingPath)"
        return "JSON encoding failed \(location): \(message)"
    }
}
