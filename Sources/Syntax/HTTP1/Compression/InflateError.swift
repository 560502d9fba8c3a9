/// Why an `Inflater` stopped.
public enum InflateError: Error, Sendable, Equatable {
    /// The bytes are not a valid stream of the inflater's format, a checksum does not match, or
    /// bytes follow the end of the stream.
    case corrupt
    /// The output would be larger than the limit given.
    case outputTooLarge(limit: Int)
    /// zlib could not allocate its state.
    case outOfMemory
}
