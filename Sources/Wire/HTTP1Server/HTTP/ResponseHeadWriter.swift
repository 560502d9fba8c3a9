import ASCIISyntax
public import HTTP1
public import HTTPBasics
/// Serialises response heads for the server.
///
/// The writer owns framing: it writes `Date` (formatted at most once a second, unless the handler
/// passes on an upstream's answer with its own `Date`, which a cache must keep), `Content-Length`
/// for every status that allows content (for a streamed body, its length when known, else
/// `Transfer-Encoding: chunked` but to HTTP/1.0 clients, whose body ends with the connection), and `Connection` when the connection's fate needs
/// saying, and ignores those fields and `Transfer-Encoding` if a handler set them. A field whose
/// name is not a token or whose value holds CR, LF, NUL or other controls is dropped, so no
/// handler can split the response.
public enum ResponseHeadWriter {
    /// The interim response sent before reading the body of an `Expect: 100-continue` request.
    public static let continueHead: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Appends the head of `response` to `buffer`.
    ///
    /// - Parameters:
    ///   - keepAlive: false adds `Connection: close`; a `101 Switching Protocols` says
    ///     `Connection: upgrade` instead.
    ///   - requestVersion: for an HTTP/1.0 request kept alive, `Connection: keep-alive` is added.
    ///   - answersHEAD: the response answers a HEAD request. Pass the response GET would give:
    ///     its body sets `Content-Length`; or one without a body whose own `Content-Length`
    ///     (digits only) says how long GET's would be, as a proxy passing on an upstream's
    ///     answer to HEAD knows.
    ///   - commonFields: fields sent with every response, already encoded by `encode(_:)`.
    public static func write(
        _ response: HTTPResponse,
        keepAlive: Bool,
        requestVersion: HTTPVersion = .http1_1,
        answersHEAD: Bool = false,
        commonFields: [UInt8] = [],
        into buffer: inout [UInt8]
    ) {
        var size = 128 + commonFields.count
        // The pass that sizes the head also finds a passed-on `Date`, so that answers without
        // one (nearly all) pay no lookup of their own for it.
        var passedDate: String?
        for field in response.headers {
            size += field.name.utf8.count + field.value.utf8.count + 4
            if passedDate == nil && field.name.equalsIgnoringASCIICase("date") { passedDate = field.value }
        }
        buffer.reserveCapacity(buffer.count + size)
        buffer.append(literal: "HTTP/1.1 ")
        DecimalDigits.append(min(max(response.status.code, 100), 999), to: &buffer)
        buffer.append(ASCII.space)
        _ = HeadBytes.append(response.status.reasonPhrase, to: &buffer, where: FieldSyntax.isFieldValue)
        buffer.append(literal: "\r\nDate: ")
        if let passedDate, isValidDate(passedDate) {
            buffer.append(contentsOf: passedDate.utf8)
        } else {
            HTTPDate.appendCurrent(to: &buffer)
        }
        if response.status.allowsContent, let stream = response.bodyStream {
            if let length = stream.length {
                buffer.append(literal: "\r\nContent-Length: ")
                DecimalDigits.append(length, to: &buffer)
            } else if requestVersion != .http1_0 {
                buffer.append(literal: "\r\nTransfer-Encoding: chunked")
            }
        } else if response.status.allowsContent {
            buffer.append(literal: "\r\nContent-Length: ")
            if answersHEAD, response.body.isEmpty, let declared = declaredLength(of: response) {
                buffer.append(contentsOf: declared.utf8)
            } else {
                DecimalDigits.append(response.body.count, to: &buffer)
            }
        }
        if response.status.code == 101 {
            buffer.append(literal: "\r\nConnection: upgrade")
        } else if !keepAlive {
            buffer.append(literal: "\r\nConnection: close")
        } else if requestVersion == .http1_0 {
            buffer.append(literal: "\r\nConnection: keep-alive")
        }
        HeadBytes.appendLineEnd(to: &buffer)
        buffer.append(contentsOf: commonFields)
        appendFields(response.headers, to: &buffer)
        HeadBytes.appendLineEnd(to: &buffer)
    }

    /// `fields` as head lines, each ending in CRLF, for `write`'s `commonFields`: a server's
    /// fixed fields encoded once rather than for every response. Framing fields and invalid
    /// names or values are dropped, as `write` drops them.
    public static func encode(_ fields: HTTPHeaders) -> [UInt8] {
        var bytes: [UInt8] = []
        appendFields(fields, to: &bytes)
        return bytes
    }

    private static func appendFields(_ fields: HTTPHeaders, to buffer: inout [UInt8]) {
        for field in fields where !field.name.isEmpty && !isFramingField(field.name) {
            let fieldStart = buffer.count
            guard HeadBytes.append(field.name, to: &buffer, where: FieldSyntax.isToken) else { continue }
            buffer.append(ASCII.colon)
            buffer.append(ASCII.space)
            guard HeadBytes.append(field.value, to: &buffer, where: FieldSyntax.isFieldValue) else {
                buffer.removeSubrange(fieldStart...)
                continue
            }
            HeadBytes.appendLineEnd(to: &buffer)
        }
    }

    /// Whether a response's own `Date` is a valid IMF-fixdate, and so is sent as it is: an
    /// upstream's answer passed on, whose date a cache must not change (RFC 9111 §4, RFC 9110 §6.6.1).
    private static func isValidDate(_ date: String) -> Bool {
        date.utf8.count == 29 && HTTPDate.secondsSince1970(strictly: date) != nil
    }

    /// The response's own `Content-Length` when it is 1 to 18 digits, else nil.
    private static func declaredLength(of response: HTTPResponse) -> String? {
        guard let value = response.headers["Content-Length"], (1...18).contains(value.utf8.count),
            value.utf8.allSatisfy(DecimalDigits.isDigit)
        else { return nil }
        return value
    }

    /// The fields the writer owns. `equalsIgnoringASCIICase` compares lengths first, so most
    /// fields, which are none of these, cost a length test each.
    private static let framingFields = ["date", "connection", "content-length", "transfer-encoding"]

    private static func isFramingField(_ name: String) -> Bool {
        framingFields.contains { name.equalsIgnoringASCIICase($0) }
    }
}
