import HTTPBasics

/// An upstream's answer: status, header fields and the whole body.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// What the shared cache did for the call (`CachingTransport`); nil when no cache was asked.
    public var cacheStatus: CacheStatus?
    /// Redirects followed to reach this answer (`UpstreamSettings.maximumRedirects`).
    public var redirects: Int {
        get { Int(redirectCount) }
        set { redirectCount = UInt8(clamping: newValue) }
    }
    /// One byte, in what would be padding after `cacheStatus`, so that the answer every frame holds
    /// does not grow: the limit is far below 255.
    private var redirectCount: UInt8 = 0

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = [], cacheStatus: CacheStatus? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.cacheStatus = cacheStatus
    }
}
