import HTTPBasics

/// An upstream's answer with its body decoded: the value, and the status and header fields it
/// came with, for callers that record or act on more than the value.
public struct DecodedResponse<Value> {
    public var value: Value
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    /// What the shared cache did for the call; nil when no cache was asked.
    public var cacheStatus: CacheStatus?
    /// Redirects followed to reach this answer.
    public var redirects: Int

    public init(value: Value, status: HTTPStatus, headers: HTTPHeaders, cacheStatus: CacheStatus? = nil, redirects: Int = 0) {
        self.value = value
        self.status = status
        self.headers = headers
        self.cacheStatus = cacheStatus
        self.redirects = redirects
    }
}

extension DecodedResponse: Sendable where Value: Sendable {}
