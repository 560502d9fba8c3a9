import HTTP1Server
import HTTPBasics

/// The CORS protocol of the Fetch standard as the gateway speaks it (`CORS_*`): which origins may
/// read its answers and what a preflight is answered. Pure: a function of the request's fields
/// and the methods the router serves at its path.
///
/// Every answer says `Vary: Origin`, since what it carries depends on that field; only an answer
/// to an allowed origin carries `Access-Control-*` fields. With credentials the origin is echoed,
/// never `*` (the Fetch standard refuses `*` then, and `CORS_ALLOWED_ORIGINS=*` with credentials
/// stops start-up).
struct CrossOriginPolicy: Sendable, Equatable {
    /// Which origins may read answers.
    enum Origins: Sendable, Equatable {
        /// Any origin, answered `Access-Control-Allow-Origin: *`; never with credentials.
        case any
        /// These exactly, compared ignoring ASCII case.
        case listed([WebOrigin])
    }

    /// Which request fields a preflight may ask for, beyond those the Fetch standard safelists.
    enum AllowedHeaders: Sendable, Equatable {
        /// Whatever the preflight asks (`Access-Control-Request-Headers` echoed), `Authorization`
        /// too, which the literal `*` would not cover.
        case requested
        /// These field names, as one `Access-Control-Allow-Headers` value; empty for none.
        case listed(String)
    }

    let origins: Origins
    let allowedHeaders: AllowedHeaders
    /// Whether the browser may send cookies and HTTP authentication, and read the answer then.
    let allowsCredentials: Bool
    /// The `Access-Control-Expose-Headers` value: answer fields a page's script may read beyond
    /// the safelisted ones; nil for none.
    let exposedHeaders: String?
    /// How long a browser may reuse a preflight's answer, in seconds (`Access-Control-Max-Age`).
    let maxAgeSeconds: Int

    /// The `Access-Control-Allow-Origin` value for a request whose `Origin` is `origin`: `*` when
    /// any origin may read, the listed origin when it is one, nil when it may not read.
    func allowedOrigin(for origin: String) -> String? {
        switch origins {
        case .any: "*"
        case .listed(let listed): listed.first { $0.serialized.equalsIgnoringASCIICase(origin) }?.serialized
        }
    }

    /// Adds the fields of the answer to a request that is not a preflight: `Vary: Origin`, and for
    /// an allowed `origin` the origin, credentials and exposed fields. (A proxy route withholds
    /// its upstream's own `answerFields`, so that the browser sees one policy.)
    func addFields(to headers: inout HTTPHeaders, origin: String?) {
        headers.add("Vary", "Origin")
        guard let origin, let allowed = allowedOrigin(for: origin) else { return }
        addOriginFields(allowed, to: &headers)
        if let exposedHeaders { headers.add("Access-Control-Expose-Headers", exposedHeaders) }
    }

    /// The answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
    /// for a path the router serves with `methods`: 204, with the route's methods, the allowed
    /// request fields and the max age when the origin is allowed, with `Vary` alone when it is
    /// not. Nil when no route serves the path or its routes lack the requested method: the router
    /// answers that as any other request (404, 405).
    ///
    /// - Parameter requestedHeaders: the preflight's `Access-Control-Request-Headers`, if any.
    func preflightAnswer(origin: String, requestedMethod: String, requestedHeaders: String?, methods: [HTTPMethod]) -> HTTPResponse? {
        guard methods.contains(HTTPMethod(rawValue: requestedMethod)) else { return nil }
        var headers = HTTPHeaders()
        headers.add("Vary", allowedHeaders == .requested ? "Origin, Access-Control-Request-Headers" : "Origin")
        if let allowed = allowedOrigin(for: origin) {
            addOriginFields(allowed, to: &headers)
            headers.add("Access-Control-Allow-Methods", methods.map(\.rawValue).joined(separator: ", "))
            switch allowedHeaders {
            case .listed(let names):
                if !names.isEmpty { headers.add("Access-Control-Allow-Headers", names) }
            case .requested:
                if let requestedHeaders, Self.isFieldNameList(requestedHeaders) {
                    headers.add("Access-Control-Allow-Headers", requestedHeaders)
                }
            }
            headers.add("Access-Control-Max-Age", String(maxAgeSeconds))
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }

    private func addOriginFields(_ allowed: String, to headers: inout HTTPHeaders) {
        headers.add("Access-Control-Allow-Origin", allowed)
        if allowsCredentials { headers.add("Access-Control-Allow-Credentials", "true") }
    }

    /// The CORS fields an answer may carry (the Fetch standard's, and Private Network Access's).
    static let answerFields = [
        "access-control-allow-origin", "access-control-allow-credentials", "access-control-allow-methods",
        "access-control-allow-headers", "access-control-max-age", "access-control-expose-headers",
        "access-control-allow-private-network",
    ]

    /// A comma-separated list of field names, as a browser writes `Access-Control-Request-Headers`.
    private static func isFieldNameList(_ text: String) -> Bool {
        text.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { FieldSyntax.isToken($0.trimmingWhitespace) }
    }
}
