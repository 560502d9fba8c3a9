public import HTTPBasics
/// One answered request, handed to the access-log closure after its response was written.
public struct AccessLogEntry: Sendable {
    public var method: HTTPMethod
    /// The raw path, without the query (which may carry secrets).
    public var path: String
    public var status: HTTPStatus
    /// Bytes of the response body sent (0 for HEAD).
    public var responseBytes: Int
    /// From the complete request head to the response written.
    public var duration: Duration
    /// `X-Request-ID` of the response, or else of the request.
    public var requestID: String?

    public init(method: HTTPMethod, path: String, status: HTTPStatus, responseBytes: Int, duration: Duration, requestID: String?) {
        self.method = method
        self.path = path
        self.status = status
        self.responseBytes = responseBytes
        self.duration = duration
        self.requestID = requestID
    }
}
