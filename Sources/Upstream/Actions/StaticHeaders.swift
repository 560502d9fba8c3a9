import HTTPBasics

/// Sets fixed header fields on every request, such as an API key or a `User-Agent`.
public struct StaticHeaders: UpstreamAction {
    private let headers: HTTPHeaders

    /// - Throws: `.invalidRequest` when a name is not an HTTP token or a value holds CR, LF or NUL.
    public init(_ headers: HTTPHeaders) throws(UpstreamError) {
        for field in headers where !field.hasValidSyntax {
            throw .invalidRequest(reason: "header field \(HeaderValidation.printableName(field.name)) is not allowed")
        }
        self.headers = headers
    }

    public func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        for field in headers {
            request.headers.set(field.name, field.value)
        }
    }
}
