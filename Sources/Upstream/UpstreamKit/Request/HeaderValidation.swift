import HTTPBasics

/// How upstream requests name a header field refused for its syntax (`HTTPHeaders.Field.hasValidSyntax`),
/// which keeps header injection out of them.
package enum HeaderValidation {
    /// The name when it is a token, else a placeholder, so an error never echoes hostile bytes.
    static func printableName(_ name: String) -> String {
        FieldSyntax.isToken(name) ? name : "<invalid name>"
    }
}
