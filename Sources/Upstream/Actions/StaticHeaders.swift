import HTTPBasics

/// Sets fixed header fields on every request, such as an API key or a `User-Agent`.
public struct StaticHeaders: UpstreamAction {
    private let headers: HTTPHeaders
    /// Whether a field the request already carries is left as it is.
    private let isDefault: Bool

    /// Fields that replace any the request carries of the same names.
    ///
    /// - Throws: `.invalidRequest` when a name is not an HTTP token or a value holds CR, LF or NUL.
    public init(_ headers: HTTPHeaders) throws(UpstreamError) {
        try self.init(headers, isDefault: false)
    }

    /// Fields set only on requests that carry none of the same name: defaults that a request's own
    /// field overrides, such as a `User-Agent` that gives way to a proxied client's.
    ///
    /// - Throws: `.invalidRequest` when a name is not an HTTP token or a value holds CR, LF or NUL.
    public init(defaults headers: HTTPHeaders) throws(UpstreamError) {
        try self.init(headers, isDefault: true)
    }

    private init(_ headers: HTTPHeaders, isDefault: Bool) throws(UpstreamError) {
        for field in headers where !HeaderValidation.isValid(field) {
            throw .invalidRequest(reason: "header field \(HeaderValidation.printableName(field.name)) is not allowed")
        }
        self.headers = headers
        self.isDefault = isDefault
    }

    public func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        for field in headers where !(isDefault && request.headers.contains(field.name)) {
            request.headers.set(field.name, field.value)
        }
    }
}
