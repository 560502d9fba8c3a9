import HTTP1
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import UpstreamKit

/// How a proxy route rewrites what it passes on (RFC 9110 §7.6): hop-by-hop fields stay on their
/// hop, the upstream learns who the client is and that the gateway relayed the request, and the
/// client gets the upstream's answer with the gateway in `Via` and, when the shared cache took
/// part, in `Cache-Status`.
enum ProxyMessages {
    /// The gateway's name in `Via` and `Cache-Status`, for combined answers too.
    static let pseudonym = "gateway"

    /// Fields of the client's request the gateway sets itself: the transport writes the upstream's
    /// `Host`, the body's `Content-Length` and its own `Accept-Encoding` (the codings it inflates,
    /// or none when the upstream's compression is off: a coding only the client could decode would
    /// fail the call), the whole body has arrived so `Expect` is answered, the request id and trace
    /// context are stamped on every upstream call, and the forwarding fields are rebuilt below.
    /// Then the fields that claim where or how the request was made, which only a proxy may
    /// write and this gateway does not: a client's own would be believed by an upstream that
    /// routes, overrides the method or writes links by them, and its answer, stored under the URL
    /// alone, served to everyone (the "unkeyed inputs" of web cache poisoning). A client that
    /// means DELETE sends DELETE: every method is relayed.
    private static let replacedInRequests = [
        "host", "content-length", "accept-encoding", "expect", RequestID.headerName, TraceParent.headerName, TraceState.headerName,
        "via", "forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto",
        "x-forwarded-port", "x-forwarded-prefix", "x-forwarded-scheme", "x-forwarded-server", "x-forwarded-ssl", "x-forwarded-uri",
        "x-forwarded-path", "x-url-scheme", "front-end-https", "x-original-url", "x-rewrite-url", "x-original-host", "x-host",
        "x-http-method-override", "x-http-method", "x-method-override", "x-real-ip", "true-client-ip", "x-client-ip",
        "x-cluster-client-ip", "client-ip", "cf-connecting-ip", "fastly-client-ip",
    ]

    /// Fields of the upstream's answer the gateway sets itself or withholds: the server frames the
    /// answer, `Via` and `Cache-Status` are extended below, a refreshed token is the gateway's
    /// credential, taken by its bearer-token action, the server sends its own
    /// `X-Content-Type-Options` with every answer (`GatewayServer.commonResponseFields`), and the
    /// origin's `Server` would tell every client which software and version sit behind the
    /// gateway (nginx hides it by default too, `proxy_hide_header`).
    static let replacedInResponses = [
        "content-length", "via", "cache-status", BearerToken.defaultRefreshHeader, "x-content-type-options", "server",
    ]

    /// Takes the cookies `names` out of `headers`' `Cookie` fields, dropping a field left empty.
    static func removeCookies(named names: [String], from headers: inout HTTPHeaders) {
        let fields = headers.values(named: "Cookie")
        guard !fields.isEmpty else { return }
        headers.remove("Cookie")
        for field in fields {
            let kept = field.split(separator: ";").filter { pair in
                let name = pair.drop { $0 == " " }.prefix { $0 != "=" }
                return !names.contains { $0 == name }
            }
            if !kept.isEmpty { headers.add("Cookie", kept.map { $0.drop { $0 == " " } }.joined(separator: "; ")) }
        }
    }

    /// The fields to send upstream for `request`: the client's, but for hop-by-hop ones and those
    /// the gateway sets, then `Via` extended with this hop, `Forwarded` and `X-Forwarded-For`
    /// naming the peer, and `X-Forwarded-Host` and `X-Forwarded-Proto` as the gateway saw them.
    /// The peer's own `Forwarded` or `X-Forwarded-For` is extended only when the peer is a trusted
    /// proxy and that is the field it writes (`TRUSTED_PROXIES_HEADER`); anyone else's is replaced,
    /// since nothing in it was checked. The shared cache keys answers by `X-Forwarded-Host`.
    ///
    /// - Parameters:
    ///   - isSecure: whether the client reached the gateway over TLS.
    ///   - proxies: the proxies whose forwarding field is believed (`TRUSTED_PROXIES`).
    static func upstreamHeaders(for request: HTTPRequest, isSecure: Bool, trusting proxies: TrustedProxies = TrustedProxies([])) -> HTTPHeaders {
        let client = request.headers
        var headers = client.withoutHopByHopFields(dropping: replacedInRequests)
        let proto = isSecure ? "https" : "http"
        let host = client["Host"]
        let trustedField = request.clientAddress.map(proxies.isTrusted) == true ? proxies.field : nil
        headers.add("Via", extended(client, "Via", with: "\(request.version.major).\(request.version.minor) \(pseudonym)"))
        var forwarded = "for=" + forwardedNode(request.clientAddress)
        if let host { forwarded += ";host=" + forwardedValue(host) }
        forwarded += ";proto=" + proto
        headers.add("Forwarded", trustedField == .forwarded ? extended(client, "Forwarded", with: forwarded) : forwarded)
        if let address = request.clientAddress {
            headers.add(
                "X-Forwarded-For",
                trustedField == .xForwardedFor ? extended(client, "X-Forwarded-For", with: address.description) : address.description)
        }
        if let host { headers.add("X-Forwarded-Host", host) }
        headers.add("X-Forwarded-Proto", proto)
        return headers
    }

    /// The client's answer for the upstream's `response`: its status, body (whole, or the stream
    /// the server sends on piece by piece) and fields but for
    /// hop-by-hop ones, with `Via` extended, and the gateway's `Cache-Status` member after any the
    /// upstream sent (RFC 9211 §2: each cache appends its own) when the shared cache took part.
    ///
    /// - Parameters:
    ///   - answeringHEAD: the request was HEAD: the answer has no body, and keeps the upstream's
    ///     `Content-Length` to say how long GET's would be.
    ///   - withheld: the fields dropped besides the hop-by-hop ones: `replacedInResponses`, and the
    ///     upstream's CORS fields too when the gateway has a CORS policy of its own.
    ///   - personal: the caller was admitted with its token: the answer is made `private`
    ///     (`privatize`), so that no shared cache in front serves it to anyone else.
    static func clientResponse(
        for response: Response, answeringHEAD: Bool, withholding withheld: [String] = replacedInResponses, personal: Bool = false
    ) -> HTTPResponse {
        var headers = response.headers.withoutHopByHopFields(dropping: withheld)
        if personal { privatize(&headers) }
        if answeringHEAD, let length = response.headers["Content-Length"] {
            headers.add("Content-Length", length)
        }
        headers.add("Via", extended(response.headers, "Via", with: "1.1 \(pseudonym)"))
        if let cacheStatus = response.cacheStatus {
            headers.add("Cache-Status", extended(response.headers, "Cache-Status", with: cacheStatus.fieldValue(cache: pseudonym)))
        } else if response.headers.contains("Cache-Status") {
            headers.add("Cache-Status", response.headers.values(named: "Cache-Status").joined(separator: ", "))
        }
        var answer = HTTPResponse(status: response.status, headers: headers, body: answeringHEAD ? [] : response.body)
        if let stream = response.message.bodyStream {
            if answeringHEAD { stream.cancel() } else { answer.bodyStream = stream }
        }
        return answer
    }

    /// Makes `headers`' caching directives `private` for an answer that only a caller with a token
    /// was given: a shared cache in front (nginx's `proxy_cache`, which does not apply RFC 9111
    /// §3.5 to requests with `Authorization`) would otherwise serve it to callers without one. The
    /// directives only shared caches obey (`public`, `s-maxage`, `proxy-revalidate`) and a
    /// qualified `private="…"` give way to `private`; the rest (`max-age` for the browser) stay.
    /// An answer that says `no-store`, or `private` already, is left as it is.
    static func privatize(_ headers: inout HTTPHeaders) {
        let directives = headers.values(named: "Cache-Control").flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace }
        func name(_ directive: Substring) -> Substring { directive.prefix { $0 != "=" }.trimmingWhitespace }
        guard !directives.contains(where: { name($0).equalsIgnoringASCIICase("no-store") || $0.equalsIgnoringASCIICase("private") }) else { return }
        let shared = ["public", "s-maxage", "proxy-revalidate", "private"]
        let kept = directives.filter { directive in !directive.isEmpty && !shared.contains { name(directive).equalsIgnoringASCIICase($0) } }
        headers.remove("Cache-Control")
        headers.add("Cache-Control", (["private"] + kept.map(String.init)).joined(separator: ", "))
    }

    /// The values of every `name` field of `fields`, in order, with `member` after them: one line
    /// for the list the field is (RFC 9110 §5.3).
    private static func extended(_ fields: HTTPHeaders, _ name: String, with member: String) -> String {
        (fields.values(named: name) + [member]).joined(separator: ", ")
    }

    /// The client as a `Forwarded` node (RFC 7239 §6): an IPv4 address as is, an IPv6 one
    /// bracketed and quoted, `unknown` when the request came from no socket.
    private static func forwardedNode(_ address: IPAddress?) -> String {
        guard let address else { return "unknown" }
        return address.isIPv6 ? "\"[\(address)]\"" : address.description
    }

    /// `value` as a `Forwarded` parameter value: a token as is, anything else quoted.
    private static func forwardedValue(_ value: String) -> String {
        if FieldSyntax.isToken(value) { return value }
        var quoted = "\""
        for character in value.unicodeScalars {
            if character == "\"" || character == "\\" { quoted += "\\" }
            quoted.unicodeScalars.append(character)
        }
        return quoted + "\""
    }
}
