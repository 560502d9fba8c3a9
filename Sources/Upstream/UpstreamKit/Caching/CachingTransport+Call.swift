import HTTPBasics

extension CachingTransport {
    /// One cacheable request as the cache handles it: its key, the caller's credentials and
    /// what the caller asked of the cache.
    struct Call: Sendable {
        let request: TransportRequest
        let settings: CacheSettings
        let key: ResponseCache.Key
        /// The values of the caller's own credential fields, empty when it sent none.
        let credentials: String
        /// What tells this request's answer apart from others for the same URL, beside the fields
        /// it varies on: the caller's credentials, so that no other caller is served what they
        /// brought, and the host the client asked for (`X-Forwarded-Host`, as Varnish hashes
        /// `Host`), so that an upstream that writes it into its answer (absolute links, a
        /// reflected field) never serves one host's answer, or a client's forged one, to another.
        let variant: String
        /// Whether the caller sent conditions of its own (`If-None-Match`, `If-Modified-Since`).
        let hasConditions: Bool
        /// Whether the caller asked for a range, which the cache does not serve.
        let hasRange: Bool
        /// Whether the caller sent `Cache-Control` directives.
        let hasDirectives: Bool

        /// Reads what the cache needs of the request's fields in one pass over them: every
        /// cacheable call pays for it, stored or not.
        init(request: TransportRequest, settings: CacheSettings, partition: String) {
            self.request = request
            self.settings = settings
            key = ResponseCache.Key(partition: partition, origin: request.origin, target: request.target)
            var credentials = ""
            var forwardedHost = ""
            var hasConditions = false, hasRange = false, hasDirectives = false
            for field in request.headers {
                let name = field.name
                if Redaction.isSecret(name: name) {
                    credentials += name.lowercased() + ":" + field.value + "\n"
                    continue
                }
                // The length first: most fields are none of these.
                switch name.utf8.count {
                case 5: hasRange = hasRange || name.equalsIgnoringASCIICase("Range")
                case 13:
                    hasConditions = hasConditions || name.equalsIgnoringASCIICase("If-None-Match")
                    hasDirectives = hasDirectives || name.equalsIgnoringASCIICase("Cache-Control")
                case 16 where name.equalsIgnoringASCIICase("X-Forwarded-Host"): forwardedHost += "x-forwarded-host:" + field.value + "\n"
                case 17: hasConditions = hasConditions || name.equalsIgnoringASCIICase("If-Modified-Since")
                default: break
                }
            }
            self.credentials = credentials
            variant = forwardedHost.isEmpty ? credentials : credentials + forwardedHost
            self.hasConditions = hasConditions
            self.hasRange = hasRange
            self.hasDirectives = hasDirectives
        }

        /// The key of the shared tier: everything the local key and variant hold, the
        /// credentials in clear (the tier hashes it).
        var sharedKey: String {
            "\(key.partition)\n\(key.origin)\n\(key.target)\n\(variant)"
        }

        /// Whether the answer may be the same for every caller.
        var isShareable: Bool { credentials.isEmpty }

        /// Whether the request counts as authorized (RFC 9111 §3.5): it carries the caller's
        /// credentials, or the gateway's own ones when the settings say they do not share.
        var isAuthorized: Bool {
            !credentials.isEmpty || (!settings.sharesGatewayCredentials && request.requiresAuthentication)
        }

        var onlyIfCached: Bool { hasDirectives && CacheControl(request.headers).onlyIfCached }

        /// The request as sent to the upstream: without the caller's own conditions, so that the
        /// answer is a whole one the cache can store (the caller's conditions are then checked here).
        var outgoing: TransportRequest {
            guard hasConditions else { return request }
            var outgoing = request
            for name in ["If-None-Match", "If-Modified-Since"] { outgoing.headers.remove(name) }
            return outgoing
        }

        /// The request as a task no caller owns sends it: bound by its timeout, not by the
        /// deadline of the caller who happened to start it.
        var shared: Call {
            var request = self.request
            request.deadline = nil
            return Call(shared: request, of: self)
        }

        private init(shared request: TransportRequest, of call: Call) {
            self.request = request
            settings = call.settings
            key = call.key
            credentials = call.credentials
            variant = call.variant
            hasConditions = call.hasConditions
            hasRange = call.hasRange
            hasDirectives = call.hasDirectives
        }

        /// `stored` served to this caller at `now` with `status`: a 304 when the caller's own
        /// conditions hold for it.
        func answer(from stored: StoredResponse, status: CacheStatus, now: Double) -> Response {
            var response = hasConditions && CachePolicy.satisfiesConditions(of: request, stored)
                ? CachePolicy.notModified(for: stored, now: now) : CachePolicy.served(stored, now: now)
            response.cacheStatus = status
            return response
        }

    }
}
