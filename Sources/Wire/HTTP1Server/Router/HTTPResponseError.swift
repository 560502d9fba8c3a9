public import HTTPBasics
/// An error a handler throws to answer with a specific status instead of 500.
///
/// The router turns it into an `application/problem+json` response with `status`, `detail` and
/// the extra `headers` (for example `Retry-After`). `detail` is sent to the client as is, so it
/// must never carry secrets or upstream internals.
public protocol HTTPResponseError: Error {
    var status: HTTPStatus { get }
    /// A human-readable explanation safe to show the client.
    var detail: String { get }
    /// Fields added to the error response.
    var headers: HTTPHeaders { get }
}

extension HTTPResponseError {
    /// None by default.
    public var headers: HTTPHeaders { HTTPHeaders() }

    /// The problem+json answer to a request for `instance`: this error's status, detail and
    /// fields, after `headers`. The one way an error becomes an answer, the router's and the
    /// gateway's.
    public func response(instance: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var fields = headers
        for field in self.headers { fields.add(field.name, field.value) }
        return .problem(status, detail: detail, instance: instance, headers: fields)
    }
}
