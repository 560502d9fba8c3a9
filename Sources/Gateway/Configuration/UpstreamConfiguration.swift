import HTTPBasics
import Upstream

/// One upstream's settings as read from the environment.
struct UpstreamConfiguration: Sendable {
    let name: String
    var baseURL: BaseURL
    /// The limit for one call, from sending to the last byte.
    var timeout: Duration
    var maximumConnections: Int
    /// Sent as `Authorization: Bearer …` on every request; never logged or printed.
    var bearerToken: String?
    /// Extra static headers sent on every request.
    var headers: HTTPHeaders
    /// The largest response body accepted; anything larger fails the call as oversized.
    var maximumResponseBytes: Int

    init(
        name: String,
        baseURL: BaseURL,
        timeout: Duration = .seconds(5),
        maximumConnections: Int = 512,
        bearerToken: String? = nil,
        headers: HTTPHeaders = [:],
        maximumResponseBytes: Int = 4 << 20
    ) {
        self.name = name
        self.baseURL = baseURL
        self.timeout = timeout
        self.maximumConnections = maximumConnections
        self.bearerToken = bearerToken
        self.headers = headers
        self.maximumResponseBytes = maximumResponseBytes
    }
}
