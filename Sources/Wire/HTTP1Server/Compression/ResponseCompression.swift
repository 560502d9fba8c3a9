public import HTTP1
public import HTTPBasics

/// Gzip for the answers of clients that accept it (RFC 9110 §8.4, §12.5.3): applied once, to the
/// finished response, by the outermost responder.
///
/// An answer is negotiable when its body has at least `minimumBytes`, its media type compresses
/// well (JSON, `+json`, XML, `text/*`) and it is not already encoded, a range or marked
/// `no-transform`; every negotiable answer carries `Vary: Accept-Encoding`, compressed or not, so
/// that caches keep the two apart. One is compressed when the request prefers gzip, is not HEAD,
/// and gzip makes it smaller. A smaller answer goes as it is to every client, as nginx's
/// `gzip_min_length` does, so it depends on no request field and needs no `Vary`. A compressed
/// answer's strong `ETag` becomes weak, as nginx does: its bytes differ from the identity
/// answer's, and `If-None-Match` compares weakly, so revalidation still works. A 304 passes as it
/// is, as nginx's does: it has no body to tell whether the answer it stands for was compressed,
/// and a cache relays the validator the origin sent. A streamed answer (`HTTPResponse.bodyStream`)
/// is compressed piece by piece, each flushed as it comes, but for an event stream, never compressed.
public struct ResponseCompression: Sendable {
    /// The smallest body worth compressing: below it, the gzip header and the CPU cost more than
    /// the bytes saved.
    public var minimumBytes: Int
    /// zlib's level, 1 (fastest) to 9 (smallest); 0 stores without compressing.
    public var level: Int

    /// What compressing one answer did, for metrics.
    public struct Outcome: Sendable, Equatable {
        /// The body's size before compression.
        public var identityBytes: Int
        /// The body's size as sent.
        public var encodedBytes: Int
    }

    /// - Parameters:
    ///   - minimumBytes: the smallest body compressed.
    ///   - level: zlib's level; `Deflater.defaultLevel` unless measurements say otherwise.
    public init(minimumBytes: Int = 1024, level: Int = Deflater.defaultLevel) {
        self.minimumBytes = minimumBytes
        self.level = level
    }

    /// Compresses `response`, the answer to `request`, when the rules above allow, and adds `Vary`
    /// to a negotiable answer; returns the sizes when it compressed.
    ///
    /// - Parameter streamEnded: called with the sizes when a streamed answer that was compressed
    ///   ends (read to its end, failed or dropped), since they are known only then.
    public func apply(
        to response: inout HTTPResponse, answering request: HTTPRequest, whenStreamEnds streamEnded: (@Sendable (Outcome) -> Void)? = nil
    ) -> Outcome? {
        if response.bodyStream != nil {
            applyToStream(of: &response, answering: request, whenEnded: streamEnded)
            return nil
        }
        guard response.status.allowsContent, response.status.code != 206, response.body.count >= max(minimumBytes, 1),
            let representation = Representation(response.headers)
        else { return nil }
        if !representation.variesOnAcceptEncoding { response.headers.add("Vary", "Accept-Encoding") }
        guard request.method != .head, let accepted = AcceptEncoding(request.headers), accepted.prefersGzip else { return nil }
        let identityBytes = response.body.count
        // Should zlib fail (no memory for its state), the answer goes as it is.
        guard let compressed = try? Deflater(level: level, inputBytes: identityBytes).gzip(response.body), compressed.count < identityBytes
        else { return nil }
        response.body = compressed
        response.headers.add("Content-Encoding", "gzip")
        weakenETag(of: &response)
        return Outcome(identityBytes: identityBytes, encodedBytes: compressed.count)
    }

    /// Gzip for a streamed answer: each piece compressed and flushed as it comes, so a reader
    /// sees it as soon as it would have uncompressed. An event stream (`text/event-stream`) is
    /// never compressed, nor a stream that says it is shorter than `minimumBytes`. Its sizes are
    /// known when it ends, and go to `ended` then.
    @inline(never)
    private func applyToStream(of response: inout HTTPResponse, answering request: HTTPRequest, whenEnded ended: (@Sendable (Outcome) -> Void)?) {
        guard let stream = response.bodyStream, response.status.allowsContent, response.status.code != 206,
            (stream.length ?? .max) >= max(minimumBytes, 1), !Self.isEventStream(response.headers),
            let representation = Representation(response.headers)
        else { return }
        if !representation.variesOnAcceptEncoding { response.headers.add("Vary", "Accept-Encoding") }
        guard request.method != .head, let accepted = AcceptEncoding(request.headers), accepted.prefersGzip,
            let deflater = try? Deflater(level: level)
        else { return }
        response.bodyStream = HTTPBodyStream(source: GzipSource(stream: stream, deflater: deflater, ended: ended))
        response.headers.add("Content-Encoding", "gzip")
        weakenETag(of: &response)
    }

    private static func isEventStream(_ headers: HTTPHeaders) -> Bool {
        guard let type = headers["Content-Type"] else { return false }
        return type.utf8.count >= 17 && type.prefix(17).equalsIgnoringASCIICase("text/event-stream")
    }

    /// A stream's pieces gzipped, one flushed piece for each; its sizes go to `ended` when it is
    /// released, however it ended.
    ///
    /// `@unchecked Sendable`: the deflater, `isFinished` and the counts are used only in `next()`,
    /// which one task calls at a time (the stream's contract), and in `deinit`.
    private final class GzipSource: HTTPBodySource, @unchecked Sendable {
        private let stream: HTTPBodyStream
        private let deflater: Deflater
        private let ended: (@Sendable (Outcome) -> Void)?
        private var isFinished = false
        private var outcome = Outcome(identityBytes: 0, encodedBytes: 0)

        init(stream: HTTPBodyStream, deflater: Deflater, ended: (@Sendable (Outcome) -> Void)?) {
            self.stream = stream
            self.deflater = deflater
            self.ended = ended
        }

        func next() async throws(HTTPBodyError) -> [UInt8]? {
            while !isFinished {
                let piece = try await stream.next()
                isFinished = piece == nil
                let compressed: [UInt8]
                do {
                    compressed = try deflater.gzipPiece(piece ?? [], finishing: isFinished)
                } catch {
                    stream.cancel()
                    throw .failed(reason: "gzip failed")
                }
                outcome.identityBytes += piece?.count ?? 0
                outcome.encodedBytes += compressed.count
                if !compressed.isEmpty { return ChunkFraming.piece(compressed[...]) }
            }
            return nil
        }

        func cancel() {
            stream.cancel()
        }

        deinit {
            if outcome.encodedBytes > 0 { ended?(outcome) }
        }
    }

    /// Marks a strong entity tag weak (`"x"` becomes `W/"x"`); a weak one stays as it is.
    private func weakenETag(of response: inout HTTPResponse) {
        guard let tag = response.headers["ETag"], tag.utf8.first == UInt8(ascii: "\"") else { return }
        response.headers.set("ETag", "W/" + tag)
    }

    /// What the response's fields say of negotiating its coding, read in one pass.
    private struct Representation {
        var variesOnAcceptEncoding = false

        /// Nil when the answer is not negotiable: a media type that does not compress (or none), a
        /// `Content-Encoding` or `Content-Range` already, or `Cache-Control: no-transform`.
        /// Values are read as bytes: no string is made of them.
        init?(_ headers: HTTPHeaders) {
            var hasCompressibleType = false
            // By length first: most fields are none of these, and cost one switch each.
            for field in headers {
                let name = field.name
                switch name.utf8.count {
                case 12 where name.equalsIgnoringASCIICase("content-type"):
                    hasCompressibleType = Self.bytes(of: field.value, Self.isCompressible(mediaType:))
                case 16 where name.equalsIgnoringASCIICase("content-encoding"), 13 where name.equalsIgnoringASCIICase("content-range"):
                    return nil
                case 13 where name.equalsIgnoringASCIICase("cache-control"):
                    if Self.bytes(of: field.value, { Self.list($0, contains: "no-transform") }) { return nil }
                case 4 where name.equalsIgnoringASCIICase("vary"):
                    if Self.bytes(of: field.value, { Self.list($0, contains: "accept-encoding") || Self.list($0, contains: "*") }) {
                        variesOnAcceptEncoding = true
                    }
                default:
                    break
                }
            }
            guard hasCompressibleType else { return nil }
        }

        /// `test` of the UTF-8 bytes of `value`, in place (a native string's are contiguous).
        private static func bytes(of value: String, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            if let result = value.utf8.withContiguousStorageIfAvailable(test) { return result }
            var copy = value
            return copy.withUTF8(test)
        }

        /// JSON and XML, their `+json` and `+xml` kinds, and text: the media type before any
        /// parameter, compared without case.
        static func isCompressible(mediaType value: UnsafeBufferPointer<UInt8>) -> Bool {
            let type = trimmed(value, upTo: ASCII.semicolon)
            if ASCII.equalsLowercased(type, "application/json") { return true }
            if type.count > 5, ASCII.equalsLowercased(UnsafeBufferPointer(rebasing: type[..<5]), "text/") { return true }
            guard type.count > 12, ASCII.equalsLowercased(UnsafeBufferPointer(rebasing: type[..<12]), "application/") else { return false }
            let subtype = UnsafeBufferPointer(rebasing: type[12...])
            if ASCII.equalsLowercased(subtype, "xml") { return true }
            guard subtype.count > 5 else { return false }
            return ASCII.equalsLowercased(UnsafeBufferPointer(rebasing: subtype[(subtype.count - 5)...]), "+json")
                || ASCII.equalsLowercased(UnsafeBufferPointer(rebasing: subtype[(subtype.count - 4)...]), "+xml")
        }

        /// Whether the comma-separated `list` has `member`, a lowercase literal (compared without
        /// case; a member's `=value` or parameters are not part of its name).
        static func list(_ list: UnsafeBufferPointer<UInt8>, contains member: StaticString) -> Bool {
            var start = 0
            while start < list.count {
                var end = start
                while end < list.count && list[end] != ASCII.comma { end += 1 }
                let item = UnsafeBufferPointer(rebasing: list[start..<end])
                let name = trimmed(UnsafeBufferPointer(rebasing: item[..<(item.firstIndex { $0 == UInt8(ascii: "=") || $0 == ASCII.semicolon } ?? item.count)]), upTo: nil)
                if ASCII.equalsLowercased(name, member) { return true }
                start = end + 1
            }
            return false
        }

        /// `bytes` up to the first `delimiter` (all of them without one), without surrounding whitespace.
        private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, upTo delimiter: UInt8?) -> UnsafeBufferPointer<UInt8> {
            var first = 0, last = delimiter.flatMap { bytes.firstIndex(of: $0) } ?? bytes.count
            while first < last && ASCII.isWhitespace(bytes[first]) { first += 1 }
            while last > first && ASCII.isWhitespace(bytes[last - 1]) { last -= 1 }
            return UnsafeBufferPointer(rebasing: bytes[first..<last])
        }
    }
}
