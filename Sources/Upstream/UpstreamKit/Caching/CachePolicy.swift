import HTTPBasics

/// The rules of a shared HTTP cache (RFC 9111) as pure functions of request and response heads
/// and the time: what may be stored, how old and how fresh a stored answer is, when it may be
/// reused, served stale or must be revalidated, how a 304 refreshes it, and what an unsafe
/// request invalidates. No I/O and no clock of its own, so every rule is tested without a network.
///
/// Choices where the RFC leaves room:
/// - No heuristic freshness: an answer without `max-age`, `s-maxage` or `Expires` is fresh only
///   for `CacheSettings.defaultFreshness`, when the operator grants one. Answers without any
///   freshness are stored only when something can be done with them later (validators to
///   revalidate with, or a stale window granted).
/// - An answer that sets a cookie is never stored: replaying `Set-Cookie` to other clients would
///   hand them one client's session.
/// - Credentials the caller put on the request (`Authorization`, cookies, API keys) make the
///   request authorized (§3.5); `CachingTransport` also keys such answers by those values, so no
///   other client is ever served them.
public enum CachePolicy {
    /// What the cache may do with a stored answer for a request.
    public enum Reuse: Sendable, Equatable {
        /// Serve it: it is fresh (or the client accepts it stale), with this much freshness left.
        case fresh(remaining: Double)
        /// Serve it stale now and refresh it in the background (`stale-while-revalidate`).
        case staleWhileRevalidate
        /// Ask the upstream first, conditionally when it has validators.
        case revalidate
    }

    // MARK: Storing

    /// Whether `response` to `request` may be stored by a shared cache (RFC 9111 §3).
    ///
    /// - Parameter authorized: whether the request carries credentials (§3.5).
    public static func mayStore(_ response: Response, to request: TransportRequest, authorized: Bool, settings: CacheSettings) -> Bool {
        guard settings.isEnabled, request.method == .get else { return false }
        // Most answers of most APIs say nothing about caching: one pass over their fields settles it.
        guard settings.grantsFreshness || response.headers.contains(where: { isCachingField($0.name) }) else { return false }
        let status = response.status.code
        guard isStorable(status: status) else { return false }
        let directives = CacheControl(response.headers)
        let requestDirectives = CacheControl(request.headers)
        guard !directives.noStore, !requestDirectives.noStore, !directives.isPrivate else { return false }
        if directives.mustUnderstand && !understoodStatuses.contains(status) { return false }
        if authorized && !(directives.isPublic || directives.sharedMaxAge != nil || directives.mustRevalidate) { return false }
        guard !response.headers.contains("Set-Cookie") else { return false }
        guard varyingFields(of: response, for: request) != nil else { return false }
        if directives.maxAge != nil || directives.sharedMaxAge != nil || response.headers.contains("Expires") { return true }
        guard heuristicallyCacheable.contains(status) || directives.isPublic else { return false }
        let hasValidators = response.headers.contains("ETag") || response.headers.contains("Last-Modified")
        return settings.defaultFreshness != nil || hasValidators || settings.staleIfError != nil
            || settings.staleWhileRevalidate != nil || directives.staleIfError != nil
    }

    /// Whether an answer with `status` may ever be stored: a final answer (not 1xx), and neither
    /// a partial one (206) nor a 304, which only refreshes what is stored.
    static func isStorable(status: Int) -> Bool {
        status >= 200 && status != 206 && status != 304
    }

    /// Whether `name` is a field that can make an answer storable.
    static func isCachingField(_ name: String) -> Bool {
        // The length first: most fields are none of these.
        switch name.utf8.count {
        case 4: name.equalsIgnoringASCIICase("ETag")
        case 7: name.equalsIgnoringASCIICase("Expires")
        case 13: name.equalsIgnoringASCIICase("Cache-Control") || name.equalsIgnoringASCIICase("Last-Modified")
        default: false
        }
    }

    /// The answer as it is stored: without hop-by-hop and proxy fields (§3.1), with the request's values of
    /// the fields its `Vary` names.
    public static func stored(
        _ response: Response, to request: TransportRequest, requestTime: Double, responseTime: Double
    ) -> StoredResponse {
        var kept = response
        kept.headers = response.headers.withoutHopByHopFields()
        kept.cacheStatus = nil
        kept.admission = nil
        return StoredResponse(
            response: kept, requestTime: requestTime, responseTime: responseTime,
            varying: varyingFields(of: response, for: request) ?? [])
    }

    /// The request fields `response` varies on, with `request`'s values; nil for `Vary: *`, which
    /// no later request can match.
    static func varyingFields(of response: Response, for request: TransportRequest) -> [StoredResponse.VaryField]? {
        var fields: [StoredResponse.VaryField] = []
        for value in response.headers.values(named: "Vary") {
            for name in value.split(separator: ",") {
                let trimmed = name.trimmingWhitespace
                guard !trimmed.isEmpty else { continue }
                if trimmed == "*" { return nil }
                let lowered = trimmed.lowercased()
                if !fields.contains(where: { $0.name == lowered }) {
                    fields.append(StoredResponse.VaryField(name: lowered, value: normalizedValue(of: lowered, in: request.headers)))
                }
            }
        }
        return fields
    }

    /// Whether `request` has the values `stored` was selected by (§4.1).
    public static func matches(_ stored: StoredResponse, _ request: TransportRequest) -> Bool {
        stored.varying.allSatisfy { $0.value == normalizedValue(of: $0.name, in: request.headers) }
    }

    /// `name`'s lines in `headers` joined by `, `, each trimmed; nil when absent.
    static func normalizedValue(of name: String, in headers: HTTPHeaders) -> String? {
        let values = headers.values(named: name)
        guard !values.isEmpty else { return nil }
        return values.map { Substring($0).trimmingWhitespace }.joined(separator: ", ")
    }

    // MARK: Age and freshness

    /// How long the answer is fresh for, from its generation, in seconds (§4.2.1): `s-maxage`,
    /// else `max-age`, else `Expires` minus `Date`, else the operator's default, else 0.
    public static func freshnessLifetime(of stored: StoredResponse, settings: CacheSettings) -> Double {
        let heads = stored.heads
        if let shared = heads.directives.sharedMaxAge { return Double(shared) }
        if let maxAge = heads.directives.maxAge { return Double(maxAge) }
        if let expires = heads.expires {
            // An invalid date, such as "0", means already expired.
            guard let expiry = expires else { return 0 }
            return max(0, expiry - dateValue(of: stored))
        }
        if let freshness = settings.defaultFreshness,
           heuristicallyCacheable.contains(stored.response.status.code) || heads.directives.isPublic {
            return freshness.seconds
        }
        return 0
    }

    /// The answer's current age at `now`, in seconds (§4.2.3): what upstream caches said (`Age`),
    /// the time on the way (`Date`, request and response times), and the time held here.
    public static func currentAge(of stored: StoredResponse, now: Double) -> Double {
        let apparentAge = max(0, stored.responseTime - dateValue(of: stored))
        let responseDelay = stored.responseTime - stored.requestTime
        let correctedAgeValue = stored.heads.age + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now - stored.responseTime)
        return correctedInitialAge + residentTime
    }

    /// How many seconds of freshness `stored` has left at `now`; negative once stale.
    public static func remainingFreshness(of stored: StoredResponse, settings: CacheSettings, now: Double) -> Double {
        freshnessLifetime(of: stored, settings: settings) - currentAge(of: stored, now: now)
    }

    private static func dateValue(of stored: StoredResponse) -> Double {
        stored.heads.date ?? stored.responseTime
    }

    // MARK: Reusing

    /// What may be done with `stored` for `request` at `now` (§4, §4.2.4, RFC 5861).
    public static func reuse(of stored: StoredResponse, for request: TransportRequest, settings: CacheSettings, now: Double) -> Reuse {
        let directives = stored.heads.directives
        let requestDirectives = CacheControl(request.headers)
        if directives.noCache || requestDirectives.noCache { return .revalidate }
        let lifetime = freshnessLifetime(of: stored, settings: settings)
        let age = currentAge(of: stored, now: now)
        var isFresh = age < lifetime
        if let maximumAge = requestDirectives.maxAge, age > Double(maximumAge) { isFresh = false }
        if let minimumFresh = requestDirectives.minFresh, lifetime - age < Double(minimumFresh) { isFresh = false }
        if isFresh { return .fresh(remaining: lifetime - age) }
        let staleness = age - lifetime
        guard !forbidsStale(directives) else { return .revalidate }
        if let maximumStale = requestDirectives.maxStale, staleness <= Double(maximumStale), requestDirectives.maxAge == nil {
            return .fresh(remaining: lifetime - age)
        }
        let window = directives.staleWhileRevalidate.map(Double.init) ?? settings.staleWhileRevalidate?.seconds
        if let window, staleness <= window { return .staleWhileRevalidate }
        return .revalidate
    }

    /// Whether `stored` may stand in for a failed refresh at `now` (`stale-if-error`, RFC 5861).
    public static func mayServeOnError(_ stored: StoredResponse, for request: TransportRequest, settings: CacheSettings, now: Double) -> Bool {
        let directives = stored.heads.directives
        guard !forbidsStale(directives) else { return false }
        let staleness = currentAge(of: stored, now: now) - freshnessLifetime(of: stored, settings: settings)
        let window = directives.staleIfError.map(Double.init)
            ?? CacheControl(request.headers).staleIfError.map(Double.init)
            ?? settings.staleIfError?.seconds
        guard let window else { return false }
        return staleness <= window
    }

    /// How long a shared tier keeps `stored` from `now`, in seconds: its remaining freshness plus
    /// the longest stale window the answer or the settings grant (`stale-while-revalidate`,
    /// `stale-if-error`), so that every replica can still serve it as this one could; 0 or less
    /// when nothing would be left to serve.
    public static func sharedLifetime(of stored: StoredResponse, settings: CacheSettings, now: Double) -> Double {
        let remaining = remainingFreshness(of: stored, settings: settings, now: now)
        let directives = stored.heads.directives
        guard !forbidsStale(directives) else { return remaining }
        let whileRevalidating = directives.staleWhileRevalidate.map(Double.init) ?? settings.staleWhileRevalidate?.seconds ?? 0
        let ifError = directives.staleIfError.map(Double.init) ?? settings.staleIfError?.seconds ?? 0
        return remaining + max(whileRevalidating, ifError)
    }

    /// `must-revalidate`, `proxy-revalidate`, `s-maxage` (which implies it for shared caches, §5.2.2.10)
    /// and `no-cache` forbid serving the answer once stale, even when the upstream fails.
    private static func forbidsStale(_ directives: CacheControl) -> Bool {
        directives.mustRevalidate || directives.proxyRevalidate || directives.sharedMaxAge != nil || directives.noCache
    }

    /// `stored` as served at `now`: with its current `Age` (§5.1).
    public static func served(_ stored: StoredResponse, now: Double) -> Response {
        var response = stored.response
        response.headers.set("Age", String(Int(currentAge(of: stored, now: now))))
        return response
    }

    // MARK: Validating

    /// `request` made conditional on `stored`'s validators (§4.3.1): `If-None-Match` with its
    /// `ETag`, `If-Modified-Since` with its `Last-Modified`; any conditions of the caller's own
    /// are replaced. Unchanged when `stored` has no validator.
    public static func validating(_ request: TransportRequest, against stored: StoredResponse) -> TransportRequest {
        var request = request
        for name in ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"] {
            request.headers.remove(name)
        }
        if let tag = stored.response.headers["ETag"] { request.headers.add("If-None-Match", tag) }
        if let modified = stored.response.headers["Last-Modified"] { request.headers.add("If-Modified-Since", modified) }
        return request
    }

    /// `stored` refreshed by a 304 to its validation (§4.3.4): the 304's fields replace the
    /// stored ones except framing, the times are the new exchange's, the body stays. Nil when
    /// the 304's validators name another answer than `stored`.
    public static func refreshed(_ stored: StoredResponse, by notModified: Response, requestTime: Double, responseTime: Double) -> StoredResponse? {
        if let tag = notModified.headers["ETag"] {
            guard let storedTag = stored.response.headers["ETag"], weakTag(tag) == weakTag(storedTag) else { return nil }
        } else if let modified = notModified.headers["Last-Modified"], modified != stored.response.headers["Last-Modified"] {
            return nil
        }
        var refreshed = stored
        var replaced: [String] = []
        for field in notModified.headers.withoutHopByHopFields() {
            let lowered = field.name.lowercased()
            guard !unrefreshedFields.contains(lowered) else { continue }
            if !replaced.contains(lowered) {
                refreshed.response.headers.remove(field.name)
                replaced.append(lowered)
            }
            refreshed.response.headers.add(field.name, field.value)
        }
        refreshed.requestTime = requestTime
        refreshed.responseTime = responseTime
        return refreshed
    }

    /// Whether the caller's own conditions (`If-None-Match`, else `If-Modified-Since`) hold for
    /// `stored`, so that it is answered 304 instead of the body (RFC 9110 §13.2.2).
    public static func satisfiesConditions(of request: TransportRequest, _ stored: StoredResponse) -> Bool {
        guard request.method == .get || request.method == .head, stored.response.status.code == 200 else { return false }
        if let tags = request.headers["If-None-Match"] {
            guard let storedTag = stored.response.headers["ETag"] else { return false }
            if Substring(tags).trimmingWhitespace == "*" { return true }
            return tags.split(separator: ",").contains { weakTag($0.trimmingWhitespace) == weakTag(storedTag) }
        }
        if let since = request.headers["If-Modified-Since"].flatMap({ HTTPDate.secondsSince1970(strictly: $0) }) {
            guard let modified = stored.response.headers["Last-Modified"].flatMap({ HTTPDate.secondsSince1970(strictly: $0) }) else { return false }
            return modified <= since
        }
        return false
    }

    /// The 304 that answers a caller whose conditions `stored` satisfies: its fields that a 304
    /// carries (RFC 9110 §15.4.5), without content.
    public static func notModified(for stored: StoredResponse, now: Double) -> Response {
        var headers = HTTPHeaders()
        for field in served(stored, now: now).headers where notModifiedFields.contains(field.name.lowercased()) {
            headers.add(field.name, field.value)
        }
        return Response(status: HTTPStatus(code: 304), headers: headers)
    }

    /// An entity tag without its weakness mark, for the weak comparison (RFC 9110 §8.8.3.2).
    private static func weakTag(_ tag: some StringProtocol) -> Substring {
        let trimmed = Substring(tag).trimmingWhitespace
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
    }

    // MARK: Invalidating

    /// The targets whose stored answers `response` to an unsafe `request` invalidates (§4.4): its
    /// own, and its `Location` and `Content-Location` when they are on the same origin. Empty for
    /// safe methods and for answers that are not 2xx or 3xx.
    public static func invalidatedTargets(by request: TransportRequest, response: Response) -> [String] {
        let safe: [HTTPMethod] = [.get, .head, .options, .trace]
        guard !safe.contains(request.method), (200..<400).contains(response.status.code) else { return [] }
        var targets = [request.target]
        for name in ["Location", "Content-Location"] {
            if let value = response.headers[name], let target = sameOriginTarget(value, base: request) {
                targets.append(target)
            }
        }
        return targets
    }

    /// `reference` resolved against `base`'s target, when it stays on `base`'s origin.
    static func sameOriginTarget(_ reference: String, base: TransportRequest) -> String? {
        // Another scheme (`mailto:`) or a malformed reference names nothing stored here.
        guard let url = URLReference.resolve(reference, origin: base.origin, target: base.target) else { return nil }
        let origin = base.origin.description
        guard let split = url.utf8.index(url.startIndex, offsetBy: origin.utf8.count, limitedBy: url.endIndex),
              url[..<split].equalsIgnoringASCIICase(origin)
        else { return nil }
        let target = url[split...]
        switch target.first {
        case nil: return "/"
        case "/": return String(target)
        case "?": return "/" + target
        default: return nil
        }
    }

    // MARK: Field lists

    /// Statuses whose answers may get a freshness the upstream did not give (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Statuses whose meaning this cache knows, for `must-understand`.
    static let understoodStatuses: Set<Int> = heuristicallyCacheable.union([302, 303, 307, 400, 403, 500, 502, 503, 504])

    /// Fields a 304 does not replace: framing belongs to the stored body.
    private static let unrefreshedFields: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]

    /// Fields a 304 carries when the cache answers one itself.
    private static let notModifiedFields: Set<String> = [
        "cache-control", "content-location", "date", "etag", "expires", "vary", "last-modified", "age",
    ]
}

extension Duration {
    /// The duration in seconds, fractions included.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
