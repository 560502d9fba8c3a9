import HTTPBasics

/// Keeps header injection out of upstream requests: names must be tokens, values field-value bytes
/// (no CR, LF, NUL or other control character but HTAB).
package enum HeaderValidation {
    static func isValid(_ field: HTTPHeaders.Field) -> Bool {
        FieldSyntax.isToken(field.name) && FieldSyntax.isFieldValue(field.value)
    }

    /// The name when it is a token, else a placeholder, so an error never echoes hostile bytes.
    static func printableName(_ name: String) -> String {
        FieldSyntax.isToken(name) ? name : "<invalid name>"
    }
}
