import HTTPBasics

/// An upstream's answer: status, header fields and the whole body.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// What the shared cache did for the call (`CachingTransport`); nil when no cache was asked.
    public var cacheStatus: CacheStatus?
    /// Redirects followed to reach this answer (`UpstreamSettings.maximumRedirects`).
    public var redirects = 0

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = [], cacheStatus: CacheStatus? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.cacheStatus = cacheStatus
    }
}
