import HTTPBasics

/// One call to an upstream, and how to turn its response into a `Value`.
///
/// A small value: where to go (a `Path` below the upstream's base URL, or a link found in an
/// earlier response), what to send, and how to decode. Building the wire request and decoding the
/// response are pure functions, so requests are tested without a network.
///
/// ```swift
/// let person = try await swapi.send(Request<Person>(path: try Path("people", "1", trailingSlash: true)))
/// let planet = try await swapi.send(Request<Planet>(link: person.homeworld))
/// ```
public struct Request<Value>: Sendable {
    public var method: HTTPMethod
    public var destination: Destination
    public var query: [QueryItem]
    public var headers: HTTPHeaders
    public var body: [UInt8]?
    /// A body sent as it is read, instead of `body`; the call is then never retried (see
    /// `TransportRequest.bodyStream`).
    public var bodyStream: HTTPBodyStream?
    /// Whether a long answer, or one of unknown length, comes back as a stream (see
    /// `TransportRequest.streamsResponse`): for a `Request<Response>` whose caller passes the
    /// answer on (a proxy route); a decoded value needs the whole body.
    public var streamsResponse = false
    /// Whether the upstream's credentials go with this request; actions add them only when true.
    public var requiresAuthentication: Bool
    /// Whether the upstream's cookie jar keeps the cookies the answer sets: false for a call that
    /// relays one client's request (a proxy route), whose cookies are that client's and must never
    /// go with other clients' calls.
    public var storesCookies = true
    /// Whether redirects are followed as the upstream's settings allow: false for a call whose
    /// answer is relayed as it is (a proxy route), whose client follows them itself.
    public var followsRedirects = true
    /// How the upstream's shared cache treats this call, instead of the upstream's own settings:
    /// `.off` for a call that changes state even though it is a GET.
    public var cache: CacheSettings?
    /// When the caller stops waiting for the answer, retries included; nil when only the
    /// upstream's timeouts bound the call.
    public var deadline: ContinuousClock.Instant?
    /// Told of each retry of this call, for the caller's log (the gateway's request scope); nil
    /// for none.
    public var attemptObserver: (any AttemptObserver)?
    /// Turns a successful (2xx) response into the value; the status was checked before.
    public var decode: @Sendable (Response) throws(UpstreamError) -> Value

    /// Where a request goes.
    public enum Destination: Sendable, Hashable {
        /// A path below the upstream's base URL.
        case path(Path)
        /// An absolute link from an upstream response; followed only when it lies under the base URL.
        case link(String)
        /// A path and query already percent-encoded, sent as they are below the base URL.
        case encoded(EncodedTarget)
    }

    /// A request with its own decoding; the typed conveniences below cover JSON, `Void` and raw `Response`.
    public init(
        _ method: HTTPMethod = .get,
        _ destination: Destination,
        query: [QueryItem] = [],
        headers: HTTPHeaders = [:],
        body: [UInt8]? = nil,
        requiresAuthentication: Bool = false,
        decode: @escaping @Sendable (Response) throws(UpstreamError) -> Value
    ) {
        self.method = method
        self.destination = destination
        self.query = query
        self.headers = headers
        self.body = body
        self.requiresAuthentication = requiresAuthentication
        self.decode = decode
    }

    /// The wire request for this call against `base`: a pure function of its inputs.
    ///
    /// - Throws: `.refusedLink` for a link outside `base`; `.invalidRequest` for a header name or
    ///   value that could split the request (CR, LF, NUL, or a name that is not an HTTP token).
    public func transportRequest(against base: BaseURL) throws(UpstreamError) -> TransportRequest {
        let target = try target(against: base)
        // Checked here, once: the fields remember it, and the head writer skips them.
        var headers = headers
        if let field = headers.checkSyntax() {
            throw .invalidRequest(reason: "header field \(HeaderValidation.printableName(field.name)) is not allowed")
        }
        var request = TransportRequest(
            method: method,
            origin: base.origin,
            target: target,
            headers: headers,
            body: body,
            requiresAuthentication: requiresAuthentication,
            storesCookies: storesCookies,
            followsRedirects: followsRedirects,
            deadline: deadline,
            cache: cache,
            bodyStream: bodyStream,
            streamsResponse: streamsResponse
        )
        request.attemptObserver = attemptObserver
        return request
    }

    /// The percent-encoded path and query this call sends to `base`'s origin.
    ///
    /// - Throws: `.refusedLink` for a link outside `base`.
    func target(against base: BaseURL) throws(UpstreamError) -> String {
        switch destination {
        case .path(let path):
            return Self.target(base.pathPrefix, path.encoded, query: query)
        case .link(let link):
            return Self.target(try base.target(forLink: link), "", query: query)
        case .encoded(let encoded):
            var encodedTarget = base.pathPrefix + encoded.path
            if encodedTarget.isEmpty { encodedTarget = "/" }
            if let query = encoded.query { encodedTarget += "?" + query }
            return Self.target(encodedTarget, "", query: query)
        }
    }

    /// The absolute URL this call goes to, for a trace: `base`'s origin and `target(against:)`,
    /// or a link without query items as it came (a link outside `base` is refused when sent), with
    /// the value of each query parameter whose name marks a credential (`key`, `token`, `sig`,
    /// `secret`, `auth`, …, as the upstream's log hides them) replaced by `placeholder`:
    /// `https://files.example/f?AWSAccessKeyId=REDACTED&Signature=REDACTED&page=2`. Nil when no
    /// target can be made.
    public func url(against base: BaseURL, redactingSecretsWith placeholder: String) -> String? {
        if case .link(let link) = destination, query.isEmpty { return Redaction.target(link, placeholder: placeholder) }
        guard let target = try? target(against: base) else { return nil }
        return base.origin.description + Redaction.target(target, placeholder: placeholder)
    }

    /// `start` then `rest`, with `query` after them, joined in one buffer that is sized once.
    private static func target(_ start: String, _ rest: String, query: [QueryItem]) -> String {
        guard !query.isEmpty else { return rest.isEmpty ? start : start + rest }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(start.utf8.count + rest.utf8.count + 64)
        bytes.append(contentsOf: start.utf8)
        bytes.append(contentsOf: rest.utf8)
        QueryItem.append(query, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value for `response`: an `.status` error for a non-2xx status, else the decoded value.
    public func value(from response: Response) throws(UpstreamError) -> Value {
        guard response.status.isSuccess else {
            throw .status(response.status, retryAfter: RetryAfter.delay(response.headers["Retry-After"]))
        }
        return try decode(response)
    }
}

extension Request where Value: Decodable & Sendable {
    /// A request whose 2xx body is JSON for `Value`.
    public init(
        _ method: HTTPMethod = .get,
        path: Path,
        query: [QueryItem] = [],
        headers: HTTPHeaders = ["Accept": "application/json"],
        body: [UInt8]? = nil,
        requiresAuthentication: Bool = false
    ) {
        self.init(method, .path(path), query: query, headers: headers, body: body,
                  requiresAuthentication: requiresAuthentication, decode: Self.decodeJSON)
    }

    /// A request that sends `body` as JSON and whose 2xx body is JSON for `Value`.
    ///
    /// - Throws: `.invalidRequest` when `body` cannot be encoded.
    public init(
        _ method: HTTPMethod,
        path: Path,
        query: [QueryItem] = [],
        headers: HTTPHeaders = ["Accept": "application/json"],
        json body: some Encodable,
        requiresAuthentication: Bool = false
    ) throws(UpstreamError) {
        var headers = headers
        headers.set("Content-Type", "application/json")
        self.init(method, path: path, query: query, headers: headers, body: try JSONBody.encode(body),
                  requiresAuthentication: requiresAuthentication)
    }

    /// A GET of an absolute link found in an upstream response, whose body is JSON for `Value`.
    public init(link: String, headers: HTTPHeaders = ["Accept": "application/json"], requiresAuthentication: Bool = false) {
        self.init(.get, .link(link), headers: headers, requiresAuthentication: requiresAuthentication, decode: Self.decodeJSON)
    }

    @Sendable private static func decodeJSON(_ response: Response) throws(UpstreamError) -> Value {
        try JSONBody.decode(Value.self, from: response.body)
    }
}

extension Request where Value == Void {
    /// A request whose 2xx body is ignored.
    public init(
        _ method: HTTPMethod = .get,
        path: Path,
        query: [QueryItem] = [],
        headers: HTTPHeaders = [:],
        body: [UInt8]? = nil,
        requiresAuthentication: Bool = false
    ) {
        self.init(method, .path(path), query: query, headers: headers, body: body,
                  requiresAuthentication: requiresAuthentication) { _ throws(UpstreamError) in }
    }
}

extension Request where Value == Response {
    /// A request that hands back the whole 2xx response: status, headers and raw body bytes.
    public init(
        _ method: HTTPMethod = .get,
        path: Path,
        query: [QueryItem] = [],
        headers: HTTPHeaders = [:],
        body: [UInt8]? = nil,
        requiresAuthentication: Bool = false
    ) {
        self.init(method, .path(path), query: query, headers: headers, body: body,
                  requiresAuthentication: requiresAuthentication) { response throws(UpstreamError) in response }
    }
}
