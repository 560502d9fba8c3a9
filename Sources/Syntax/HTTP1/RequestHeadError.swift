/// Why `RequestHeadWriter` refused to write a request head: a part that would let CR, LF, NUL
/// or other bytes outside the grammar reach the wire. Values are never quoted.
public enum RequestHeadError: Error, Sendable, Equatable {
    case invalidMethod
    case invalidTarget
    case invalidHost
    case invalidFieldName
    /// The value of the field with this (valid) name holds a forbidden byte.
    case invalidFieldValue(name: String)
}
