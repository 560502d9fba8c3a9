import HTTPBasics

/// An answer held by the shared cache, with what its age, reuse and variants are judged by.
public struct StoredResponse: Sendable {
    /// The answer, without its hop-by-hop fields.
    public var response: Response
    /// When the request that brought it was sent, in seconds since 1970 (RFC 9111 §4.2.3 `request_time`).
    public var requestTime: Double
    /// When the answer arrived, in seconds since 1970 (`response_time`).
    public var responseTime: Double
    /// The request fields its `Vary` names, with the values the request had for them.
    public var varying: [VaryField]

    public init(response: Response, requestTime: Double, responseTime: Double, varying: [VaryField] = []) {
        self.response = response
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varying = varying
    }

    /// One field a stored answer varies on: its lower-cased name and the request's value for it,
    /// its lines joined by `, ` (nil when the request did not have it).
    public struct VaryField: Sendable, Equatable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// What the answer occupies in memory, near enough to bound the cache by: body, fields and bookkeeping.
    var size: Int {
        var size = response.body.count + 256
        for field in response.headers { size += field.name.utf8.count + field.value.utf8.count + 32 }
        for field in varying { size += field.name.utf8.count + (field.value?.utf8.count ?? 0) + 32 }
        return size
    }
}
