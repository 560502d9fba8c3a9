import Glibc
import HTTPBasics
import UpstreamKit

/// An upstream as one request's handler sees it: GET a path or follow a link, send a JSON
/// body, decode the JSON answer, and fail with an `UpstreamFailure` that maps to the right
/// client status (a required part's 404 is the client's 404, a 5xx or timeout a 502 or 504).
///
/// Every call carries the request's id and trace context (a `traceparent` of its own, in the
/// request's trace, and the client's `tracestate`), requires the upstream's credentials,
/// runs within what is left of the request's deadline, and is counted in metrics and in the
/// request's access log line.
public struct UpstreamClient: Sendable {
    let name: String
    let upstream: ConfiguredUpstream
    let scope: RequestScope
    /// `Bearer <the signed-in user's access token>`, for an upstream that takes it: set before the
    /// cache, which so treats it as the caller's credential (no user's answer is served to another).
    var userAuthorization: String? = nil

    /// GETs the path made of `segments` (each percent-encoded as one segment) below the base URL.
    ///
    /// ```swift
    /// let person = try await swapi.get("people", String(id), trailingSlash: true, as: SwapiPerson.self)
    /// ```
    public func get<Value: Decodable & Sendable>(
        _ segments: String..., trailingSlash: Bool = false, query: [QueryItem] = [], headers: HTTPHeaders = [:],
        as type: Value.Type = Value.self
    ) async throws(UpstreamFailure) -> Value {
        var request = Request<Value>(path: try path(segments, trailingSlash: trailingSlash), query: query)
        for field in headers { request.headers.add(field.name, field.value) }
        return try await send(consume request)
    }

    /// Sends `body` as JSON with `method` (POST, PUT, PATCH, DELETE) to the path made of
    /// `segments`, and decodes the JSON answer.
    ///
    /// ```swift
    /// let order = try await shop.send(.post, "orders", json: NewOrder(item: item), headers: ["Authorization": token], as: Order.self)
    /// ```
    public func send<Value: Decodable & Sendable>(
        _ method: HTTPMethod, _ segments: String..., trailingSlash: Bool = false, query: [QueryItem] = [],
        json body: some Encodable, headers: HTTPHeaders = [:], as type: Value.Type = Value.self
    ) async throws(UpstreamFailure) -> Value {
        let path = try path(segments, trailingSlash: trailingSlash)
        var request: Request<Value>
        do {
            request = try Request<Value>(method, path: path, query: query, json: body)
        } catch {
            throw UpstreamFailure(upstream: name, error: error)
        }
        for field in headers { request.headers.add(field.name, field.value) }
        return try await send(consume request)
    }

    /// GETs an absolute link found in an upstream's response, only when it lies under the
    /// upstream's base URL; otherwise nothing is sent and the call fails as a refused link.
    public func follow<Value: Decodable & Sendable>(_ link: String, as type: Value.Type = Value.self) async throws(UpstreamFailure) -> Value {
        try await send(Request<Value>(link: link))
    }

    /// GETs the path made of `segments` and returns the answer's body as it arrives, to pass on
    /// or merge into a streamed endpoint's answer (`Endpoint(…, contentType:stream:)`): an event
    /// stream, a large file. Each read of it waits at most the upstream's timeout, however long
    /// the stream lives; cancel it to close its connection. A non-2xx answer fails as `get` does.
    ///
    /// ```swift
    /// let events = try await clock.stream("ticks", headers: ["Accept": "text/event-stream"])
    /// while let piece = try await events.next() { print(piece.count) }
    /// ```
    public func stream(
        _ segments: String..., trailingSlash: Bool = false, query: [QueryItem] = [], headers: HTTPHeaders = [:]
    ) async throws(UpstreamFailure) -> HTTPBodyStream {
        var request = Request<Response>(.get, .path(try path(segments, trailingSlash: trailingSlash)), query: query) { response throws(UpstreamError) in
            response
        }
        for field in headers { request.headers.add(field.name, field.value) }
        request.streamsResponse = true
        request.cache = .off
        let response = try await exchange(request)
        guard response.status.isSuccess else {
            response.message.bodyStream?.cancel()
            throw UpstreamFailure(upstream: name, error: .status(response.status, retryAfter: nil))
        }
        return response.message.bodyStream ?? .whole(response.body)
    }

    /// Sends any request to this upstream: a custom method, headers, body or decoding.
    ///
    /// - Parameters:
    ///   - request: the request, with its method, target, headers, body and decoding.
    ///   - name: what the access log calls this call (`person`); by default the request's
    ///     path below the base URL, or its link.
    public func send<Value>(_ request: consuming Request<Value>, named name: String? = nil) async throws(UpstreamFailure) -> Value {
        let start = ContinuousClock.now
        var record = CallRecordStart(name: name ?? CallRecordStart.name(of: request.destination))
        do throws(UpstreamFailure) {
            let response = try await upstream.upstream.response(to: stamped(consume request, recording: &record))
            finish(record, outcome: .success, status: response.status.code, cache: response.cacheStatus, redirects: response.redirects, since: start)
            return response.value
        } catch {
            finish(record, failure: error.error, since: start)
            throw error
        }
    }

    /// Sends `request` and returns the upstream's answer whatever its status, for a proxy route
    /// to pass on; stamped, recorded and counted as `send` does, by the answer's status, but with
    /// the upstream's credentials only when `request` requires them (the route's choice).
    func exchange(_ request: consuming Request<Response>) async throws(UpstreamFailure) -> Response {
        let start = ContinuousClock.now
        var record = CallRecordStart(name: CallRecordStart.name(of: request.destination))
        do throws(UpstreamFailure) {
            let response = try await upstream.upstream.exchange(stamped(consume request, recording: &record, withCredentials: false))
            finish(
                record, outcome: UpstreamOutcome(answered: response.status), status: response.status.code, cache: response.cacheStatus,
                redirects: response.redirects, since: start)
            return response
        } catch {
            finish(record, failure: error.error, since: start)
            throw error
        }
    }

    private func path(_ segments: [String], trailingSlash: Bool) throws(UpstreamFailure) -> Path {
        do {
            return try Path(segments: segments, trailingSlash: trailingSlash)
        } catch {
            throw UpstreamFailure(upstream: name, error: .invalidRequest(reason: "invalid path segment"))
        }
    }

    /// `request` as this gateway sends it: with the upstream's credentials, the request's id,
    /// trace context (a `traceparent` naming its first attempt; each retry gets one of its own
    /// from the scope, `RequestScope.retrying`) and deadline.
    /// Synchronous, so that its copy of the request is not kept in the frame of `send` while the
    /// call is in flight.
    /// `record` keeps the call's `traceparent`, by which the scope counts its retries.
    /// `withCredentials` false leaves `requiresAuthentication` as the request has it: a proxy
    /// route's choice (`ProxyRoute.upstreamCredentials`).
    ///
    /// The request's own fields are checked here, so that the fields added after them, checked
    /// where they were made (configured, resolved or generated), need no check of their own.
    func stamped<Value>(
        _ request: consuming Request<Value>, recording record: inout CallRecordStart, withCredentials: Bool = true
    ) -> Request<Value> {
        if withCredentials { request.requiresAuthentication = true }
        if let userAuthorization { request.headers.set("Authorization", userAuthorization) }
        request.deadline = scope.deadline
        request.attemptObserver = scope
        // A bad field is reported when the wire request is built; the fields below then count as unchecked.
        _ = request.headers.checkSyntax()
        request.headers.reserveCapacity(request.headers.count + 4)
        // A default, so that a proxy route passes its client's own on; set here rather than by an
        // action, which would cost every attempt a call of its own.
        if let userAgent = upstream.userAgent, !request.headers.contains("User-Agent") {
            request.headers.add(checked: userAgent)
        }
        request.headers.add(checked: HTTPHeaders.Field(name: RequestID.headerName, value: scope.requestID))
        record.traceParent = scope.trace.traceParentForCall()
        if scope.tracesCalls { noteForSpan(record.traceParent, of: request) }
        request.headers.add(checked: HTTPHeaders.Field(name: TraceParent.headerName, value: record.traceParent))
        if let traceState = scope.trace.traceState {
            request.headers.add(checked: HTTPHeaders.Field(name: TraceState.headerName, value: traceState))
        }
        return request
    }

    /// Never inlined, and kept in the scope rather than in `CallRecordStart`: what only a traced
    /// request needs stays out of the async frame of `send`.
    /// The URL keeps its query, with secret values as the semantic conventions write them
    /// (`REDACTED`); a link with user information is refused when sent, and its span names no URL.
    @inline(never)
    private func noteForSpan<Value>(_ traceParent: String, of request: borrowing Request<Value>) {
        let baseURL = upstream.upstream.baseURL
        scope.noteCall(
            traceParent: traceParent,
            CallSpanNote(method: request.method, origin: baseURL.origin, url: request.url(against: baseURL, redactingSecretsWith: "REDACTED")))
    }

    func finish(_ record: CallRecordStart, failure error: UpstreamError, since start: ContinuousClock.Instant) {
        var status: Int?
        if case .status(let answered, _) = error { status = answered.code }
        if case .untrustedCertificate = error { warn(error) }
        finish(record, outcome: UpstreamOutcome(error), status: status, cache: nil, since: start)
    }

    /// Never inlined: the line's temporaries would enlarge the async frame of `send`.
    @inline(never)
    private func warn(_ error: UpstreamError) {
        upstream.warn?(UpstreamFailure(upstream: name, error: error).description)
    }

    func finish(
        _ record: CallRecordStart, outcome: UpstreamOutcome, status: Int?, cache: CacheStatus?, redirects: Int = 0,
        since start: ContinuousClock.Instant
    ) {
        let duration = start.duration(to: .now)
        upstream.metrics.record(outcome, cache: cache, duration: duration)
        // The first attempt, unless nothing was sent: a stored or shared answer, an open circuit,
        // a full queue, a request refused before sending. The scope adds the retries.
        let sent: Bool
        switch outcome {
        case .circuitOpen, .overloaded, .refusedLink, .invalidRequest: sent = false
        default: sent = cache?.forwarded ?? true
        }
        scope.record(
            UpstreamCallRecord(
                call: record.name, upstream: name, outcome: outcome, status: status, attempts: sent ? 1 : 0, duration: duration, cache: cache,
                redirects: redirects, traceParent: record.traceParent, startOffset: scope.start.duration(to: start)))
    }

    /// What the call's record needs from before it is sent: its name, and the `traceparent` of
    /// its first attempt, by which the scope finds its retries.
    struct CallRecordStart {
        let name: String
        var traceParent = ""

        /// The name of a call its handler did not name: its path below the base URL, or its link.
        // Inlined into the caller, where `Value` is known, so no generic metadata is looked up.
        @inline(__always)
        static func name<Value>(of destination: Request<Value>.Destination) -> String {
            switch destination {
            case .path(let path): path.encoded
            case .link(let link): withoutQuery(link)
            case .encoded(let target): target.path
            }
        }

        /// `link` up to its query, which may hold secrets; a path's or an encoded target's has none.
        private static func withoutQuery(_ link: String) -> String {
            var link = link
            // memchr, which reads a word at a time: every call to a link pays this scan.
            let end = link.withUTF8 { bytes -> Int? in
                guard let base = bytes.baseAddress, let found = memchr(base, Int32(UInt8(ascii: "?")), bytes.count) else { return nil }
                return UnsafeRawPointer(base).distance(to: found)
            }
            guard let end else { return link }
            return String(decoding: link.utf8.prefix(end), as: UTF8.self)
        }
    }
}
