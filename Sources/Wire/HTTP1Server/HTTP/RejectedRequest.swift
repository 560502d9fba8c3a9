import HTTP1
public import HTTPBasics
/// A request the server refused before any responder saw it (400, 413, 414, 417, 431, 505),
/// handed to the rejection-log closure after the refusal was sent.
///
/// Only the request line is quoted, never a header field (fields may carry credentials), and
/// the target without its query, as `AccessLogEntry` gives the path. Both are cut to
/// `maximumQuotedBytes` and may hold any bytes, invalid UTF-8 replaced: escape them when logging.
public struct RejectedRequest: Sendable, Equatable {
    /// How much of the method and of the target is kept.
    public static let maximumQuotedBytes = 64

    /// The method, or nil when the first line does not start with a token and a space (it may
    /// be a header field sent without a request line, whose value is not to be logged).
    public var method: String?
    /// The target up to its `?`, or nil when the method is nil or the line ends before one.
    public var target: String?
    public var status: HTTPStatus
    /// The parser's reason, a fixed phrase such as `invalid Host`.
    public var reason: String
    /// The client's address as `address:port` (IPv6 in brackets), or nil when unknown.
    public var peer: String?

    public init(method: String?, target: String?, status: HTTPStatus, reason: String, peer: String?) {
        self.method = method
        self.target = target
        self.status = status
        self.reason = reason
        self.peer = peer
    }

    /// Quotes the method and target of the request line at the start of `bytes` (empty lines
    /// before it skipped), however malformed or incomplete it is.
    init(_ refusal: HTTPParseError, requestLine bytes: UnsafeRawBufferPointer, peer: String?) {
        var index = 0
        while index < bytes.count && (bytes[index] == ASCII.carriageReturn || bytes[index] == ASCII.lineFeed) { index += 1 }
        let methodStart = index
        while index < bytes.count && FieldSyntax.isTokenByte(bytes[index]) { index += 1 }
        var method: String?
        var target: String?
        if index > methodStart && (index == bytes.count || bytes[index] == ASCII.space) {
            method = Self.quote(bytes, methodStart, index)
            if index < bytes.count {
                index += 1
                let targetStart = index
                while index < bytes.count, !Self.endsTarget(bytes[index]) { index += 1 }
                target = Self.quoteTarget(bytes, targetStart, index)
            }
        }
        self.init(method: method, target: target, status: refusal.status, reason: refusal.reason, peer: peer)
    }

    /// Quotes the method and path of a head whose body was refused.
    init(_ refusal: HTTPParseError, of head: RequestHead, peer: String?) {
        let path = head.path.utf8.prefix(Self.maximumQuotedBytes)
        self.init(
            method: head.method.rawValue, target: String(decoding: path, as: UTF8.self), status: refusal.status,
            reason: refusal.reason, peer: peer)
    }

    private static func endsTarget(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.carriageReturn || byte == ASCII.lineFeed || byte == ASCII.questionMark
    }

    /// Quotes a target without the `user:password@` an absolute-form one may carry
    /// (`http://user:secret@host/`): credentials are never logged.
    private static func quoteTarget(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
        guard let slash = (start..<end).first(where: { bytes[$0] == ASCII.slash }),
              slash > start, bytes[slash - 1] == ASCII.colon, slash + 1 < end, bytes[slash + 1] == ASCII.slash
        else { return quote(bytes, start, end) }
        let authority = slash + 2
        let authorityEnd = (authority..<end).first(where: { bytes[$0] == ASCII.slash }) ?? end
        guard let at = (authority..<authorityEnd).last(where: { bytes[$0] == UInt8(ascii: "@") }) else {
            return quote(bytes, start, end)
        }
        let kept = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<authority])) + Array(UnsafeRawBufferPointer(rebasing: bytes[(at + 1)..<end]))
        return String(decoding: kept.prefix(maximumQuotedBytes), as: UTF8.self)
    }

    private static func quote(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<min(end, start + maximumQuotedBytes)]), as: UTF8.self)
    }
}
