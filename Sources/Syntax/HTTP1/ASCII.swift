/// Byte constants and character classes of the HTTP/1.1 grammar (RFC 9110 §5.6, RFC 9112).
public enum ASCII {}

// Public for the server, the client and the router, which share the codec's grammar.
public extension ASCII {
    /// HT.
    static let horizontalTab: UInt8 = 0x09
    /// LF.
    static let lineFeed: UInt8 = 0x0A
    /// CR.
    static let carriageReturn: UInt8 = 0x0D
    /// SP.
    static let space: UInt8 = 0x20
    /// `:`.
    static let colon: UInt8 = 0x3A
    /// `;`.
    static let semicolon: UInt8 = 0x3B
    /// `,`.
    static let comma: UInt8 = 0x2C
    /// `/`.
    static let slash: UInt8 = 0x2F
    /// `?`.
    static let questionMark: UInt8 = 0x3F
    /// `#`.
    static let numberSign: UInt8 = 0x23
    /// `%`.
    static let percentSign: UInt8 = 0x25
    /// `[`.
    static let leftBracket: UInt8 = 0x5B
    /// `]`.
    static let rightBracket: UInt8 = 0x5D
    /// DEL.
    static let delete: UInt8 = 0x7F

    /// The bytes a `reg-name` (RFC 3986 §3.2.2) may hold as they are: unreserved and sub-delims
    /// (its percent-encoding is checked apart), as two 64-bit masks like `FieldSyntax`'s `tchar`.
    @inline(__always)
    static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
        // A select rather than a branch per half: most bytes of a name mix both halves.
        let mask: UInt64 = byte < 64 ? 0x2BFF_7FD2_0000_0000 : 0x47FF_FFFE_87FF_FFFE
        return byte < 128 && mask & (1 << UInt64(byte & 63)) != 0
    }

    /// Whether `byte` is optional whitespace (OWS): SP or HT.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == horizontalTab
    }

    /// ASCII case-insensitive comparison of raw bytes with a lowercase literal.
    @inline(__always)
    static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let literal = lowercase.utf8Start
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            guard folded == literal[index] else { return false }
        }
        return true
    }
}
