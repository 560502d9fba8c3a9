import HTTPBasics

/// Sets fixed header fields on every request, such as an API key or a `User-Agent`.
public struct StaticHeaders: UpstreamAction {
    private let headers: HTTPHeaders
    private let areCredentials: Bool

    /// - Parameter areCredentials: the fields are credentials (an API key, say): like a bearer
    ///   token, they go only on requests that require authentication (`requiresAuthentication`).
    /// - Throws: `.invalidRequest` when a name is not an HTTP token or a value holds CR, LF or NUL.
    public init(_ headers: HTTPHeaders, areCredentials: Bool = false) throws(UpstreamError) {
        for field in headers where !field.hasValidSyntax {
            throw .invalidRequest(reason: "header field \(HeaderValidation.printableName(field.name)) is not allowed")
        }
        self.headers = headers
        self.areCredentials = areCredentials
    }

    public func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        guard request.requiresAuthentication || !areCredentials else { return }
        for field in headers {
            request.headers.set(field.name, field.value)
        }
    }
}
