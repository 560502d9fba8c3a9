/// Why a JSON document could not be decoded into the requested type.
///
/// The error names what went wrong, where in the value (`codingPath`, such as `cards[3].code`) and,
/// when known, the byte offset in the input. It never repeats the input's content: upstream bodies
/// may carry data that must not reach logs or responses, so paths show only identifier-like keys
/// (see ``codingPath``) and messages are fixed text.
public struct JSONDecodingError: Error, Sendable, CustomStringConvertible {
    /// The category of a decoding failure.
    public enum Reason: Sendable, Hashable {
        /// The input is not valid RFC 8259 JSON (including invalid UTF-8 and trailing data).
        case invalidSyntax
        /// Arrays and objects are nested deeper than ``JSONByteDecoder/maximumDepth``.
        case nestingTooDeep
        /// The input is larger than the decoder can index (4 GiB).
        case documentTooLarge
        /// The JSON value has a different type than the model expects.
        case typeMismatch
        /// The JSON value is `null` (or an array ran out of elements) where the model expects a value.
        case valueNotFound
        /// An object lacks a key the model requires.
        case keyNotFound
        /// A number does not fit the requested type, or is not an integer where one is expected.
        case numberOutOfRange
        /// The model's own `init(from:)` rejected a value.
        case invalidValue
        /// The model asked for a decoder feature this decoder does not offer.
        case unsupported
    }

    /// The category of the failure.
    public let reason: Reason
    /// A fixed, human-readable explanation; it never contains input content.
    public let message: String
    /// Where in the value the failure happened, such as `cards[3].code`; empty for the top level.
    ///
    /// Keys that are not short identifiers (letters, digits, `_`, `-`) appear as `<key>`, because
    /// such keys are likely to come from the input (for example dictionary keys) rather than the model.
    public let codingPath: String
    /// The offset of the offending byte or value in the input, when known.
    public let byteOffset: Int?

    /// Creates an error; the decoder builds these, and tests may too.
    public init(reason: Reason, message: String, codingPath: String = "", byteOffset: Int? = nil) {
        self.reason = reason
        self.message = message
        self.codingPath = codingPath
        self.byteOffset = byteOffset
    }

    public var description: String {
        let location = codingPath.isEmpty ? "at the top level" : "at \(codingPath)"
        let offset = byteOffset.map { " (byte \($0))" } ?? ""
        return "JSON decoding failed \(location)\(offset): \(message)"
    }
}
