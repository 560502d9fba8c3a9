import HTTPBasics

extension CachingTransport {
    /// One cacheable request as the cache handles it: its key, the caller's credentials and
    /// what the caller asked of the cache.
    struct Call: Sendable {
        let request: TransportRequest
        let settings: CacheSettings
        let key: ResponseCache.Key
        /// The values of the caller's own credential fields, empty when it sent none: part of
        /// the key, so that no other caller is served what these credentials brought.
        let credentials: String

        init(request: TransportRequest, settings: CacheSettings, partition: String) {
            self.request = request
            self.settings = settings
            key = ResponseCache.Key(partition: partition, origin: request.origin, target: request.target)
            credentials = Self.credentials(in: request.headers)
        }

        /// Whether the answer may be the same for every caller.
        var isShareable: Bool { credentials.isEmpty }

        /// Whether the request counts as authorized (RFC 9111 §3.5): it carries the caller's
        /// credentials, or the gateway's own ones when the settings say they do not share.
        var isAuthorized: Bool {
            !credentials.isEmpty || (!settings.sharesGatewayCredentials && request.requiresAuthentication)
        }

        var onlyIfCached: Bool { CacheControl(request.headers).onlyIfCached }

        /// The request as sent to the upstream: without the caller's own conditions, so that the
        /// answer is a whole one the cache can store (the caller's conditions are then checked here).
        var outgoing: TransportRequest {
            var outgoing = request
            for name in ["If-None-Match", "If-Modified-Since"] { outgoing.headers.remove(name) }
            return outgoing
        }

        /// The request as a task no caller owns sends it: bound by its timeout, not by the
        /// deadline of the caller who happened to start it.
        var shared: Call {
            var request = self.request
            request.deadline = nil
            return Call(request: request, settings: settings, key: key, credentials: credentials)
        }

        private init(request: TransportRequest, settings: CacheSettings, key: ResponseCache.Key, credentials: String) {
            self.request = request
            self.settings = settings
            self.key = key
            self.credentials = credentials
        }

        /// `stored` served to this caller at `now` with `status`: a 304 when the caller's own
        /// conditions hold for it.
        func answer(from stored: StoredResponse, status: CacheStatus, now: Double) -> Response {
            var response = CachePolicy.satisfiesConditions(of: request, stored)
                ? CachePolicy.notModified(for: stored, now: now) : CachePolicy.served(stored, now: now)
            response.cacheStatus = status
            return response
        }

        /// `name: value` lines of the fields that carry credentials: `Authorization`, cookies, and
        /// any field whose name marks a secret (`X-Api-Key`, `X-Session-Token`).
        static func credentials(in headers: HTTPHeaders) -> String {
            var credentials = ""
            for field in headers where Redaction.isSecret(name: field.name) {
                credentials += field.name.lowercased() + ":" + field.value + "\n"
            }
            return credentials
        }
    }
}
