/// Why a `Deflater` could not compress.
public enum DeflateError: Error, Sendable, Equatable {
    /// The level is not one zlib knows (0 to 9).
    case invalidLevel(Int)
    /// zlib could not allocate its state.
    case outOfMemory
    /// zlib stopped before the end of the stream, which a buffer of `deflateBound`'s size rules
    /// out: a fault of zlib or of this wrapper, reported rather than trusted.
    case incomplete
}
