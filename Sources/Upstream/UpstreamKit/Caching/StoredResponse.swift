import HTTPBasics

/// An answer held by the shared cache, with what its age, reuse and variants are judged by.
public struct StoredResponse: Sendable {
    /// The answer, without its hop-by-hop fields.
    public var response: Response {
        didSet { heads = Heads(response.headers) }
    }
    /// When the request that brought it was sent, in seconds since 1970 (RFC 9111 §4.2.3 `request_time`).
    public var requestTime: Double
    /// When the answer arrived, in seconds since 1970 (`response_time`).
    public var responseTime: Double
    /// The request fields its `Vary` names, with the values the request had for them.
    public var varying: [VaryField]
    /// What the rules read of `response`'s fields, parsed once when it is stored rather than at every reuse.
    private(set) var heads: Heads

    public init(response: Response, requestTime: Double, responseTime: Double, varying: [VaryField] = []) {
        self.response = response
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varying = varying
        heads = Heads(response.headers)
    }

    /// The fields of a stored answer that its freshness and age are computed from.
    struct Heads: Sendable {
        let directives: CacheControl
        /// `Date`, in seconds since 1970, when valid.
        let date: Double?
        /// `Expires`: nil when absent, `.some(nil)` when not a date (already expired).
        let expires: Double??
        /// The `Age` field's seconds.
        let age: Double

        init(_ headers: HTTPHeaders) {
            directives = CacheControl(headers)
            date = headers["Date"].flatMap { HTTPDate.secondsSince1970(strictly: $0) }.map(Double.init)
            // Two `Expires` lines are as invalid as one that is not a date: already expired.
            let expiry = headers.values(named: "Expires")
            expires = expiry.isEmpty ? nil : .some(expiry.count == 1 ? HTTPDate.secondsSince1970(strictly: expiry[0]).map(Double.init) : nil)
            age = Self.ageValue(headers["Age"])
        }

        /// The `Age` field's seconds: the first value of its first line when it is delta-seconds;
        /// anything else (`-1`, `1.5`, `old`) is ignored, as if absent (RFC 9111 §5.1).
        private static func ageValue(_ value: String?) -> Double {
            guard let first = value?.split(separator: ",", omittingEmptySubsequences: false).first?.trimmingWhitespace,
                  !first.isEmpty, first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return 0 }
            return Double(CacheControl.delta(first))
        }
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
