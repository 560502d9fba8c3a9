import HTTPBasics

/// Keeps header injection out of upstream requests: names must be tokens, values free of CR, LF and NUL.
enum HeaderValidation {
    static func isValid(_ field: HTTPHeaders.Field) -> Bool {
        isToken(field.name) && isValidValue(field.value)
    }

    static func isValidValue(_ value: some StringProtocol) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// A field name (RFC 9110 §5.6.2 token), not empty.
    static func isToken(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            PercentEncoding.isUnreserved(byte) || "!#$%&'*+^`|".utf8.contains(byte)
        }
    }

    /// The name when it is a token, else a placeholder, so an error never echoes hostile bytes.
    static func printableName(_ name: String) -> String {
        isToken(name) ? name : "<invalid name>"
    }
}
