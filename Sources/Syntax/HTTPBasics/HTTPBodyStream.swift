/// A message body that moves piece by piece instead of being held whole: a request body read from
/// the client as the handler asks for it, an upstream's answer read as the server sends it on, or
/// pieces a handler writes (`writing(length:by:)`).
///
/// Reading pulls: the next piece is read from its socket only when `next()` asks for it, so a
/// slow reader slows the writer at the other end and the stream holds a few buffers whatever the
/// body's size. One task reads a stream at a time; a stream is read once.
///
/// ```swift
/// let answer = HTTPBodyStream.writing { writer in
///     for count in 1...3 {
///         try await writer.write(Array("data: \(count)\n\n".utf8))
///     }
/// }
/// var received: [UInt8] = []
/// while let piece = try await answer.next() { received += piece }
/// ```
public final class HTTPBodyStream: Sendable {
    /// The body's length when it is known before it is read (a `Content-Length`), else nil.
    public let length: Int?
    private let source: any HTTPBodySource

    /// A stream of what `source` reads.
    ///
    /// - Parameter length: the number of bytes `source` will give, when known; a server sends it
    ///   as `Content-Length`, and a stream without it goes out chunked.
    public init(length: Int? = nil, source: any HTTPBodySource) {
        self.length = length
        self.source = source
    }

    /// The next piece (never empty), or nil once the body is complete.
    ///
    /// - Throws: `HTTPBodyError` when the body cannot be read whole: the peer went away or
    ///   stalled, the framing is broken, or the producer failed.
    public func next() async throws(HTTPBodyError) -> [UInt8]? {
        try await source.next()
    }

    /// Stops reading before the end: whatever the stream reads from (a connection, a producer)
    /// is released, and a later `next()` fails with `.cancelled`.
    public func cancel() {
        source.cancel()
    }

    /// Reads the rest of the body into one array.
    ///
    /// - Throws: `.tooLarge` as soon as more than `limit` bytes arrive (the stream is cancelled),
    ///   or what `next()` throws.
    public func collect(upTo limit: Int) async throws(HTTPBodyError) -> [UInt8] {
        if let length, length > limit {
            cancel()
            throw .tooLarge(limit: limit)
        }
        guard var body = try await next() else { return [] }
        while let piece = try await next() {
            guard piece.count <= limit - body.count else {
                cancel()
                throw .tooLarge(limit: limit)
            }
            body += piece
        }
        guard body.count <= limit else { throw .tooLarge(limit: limit) }
        return body
    }

    /// A stream of the pieces `producer` writes, produced as they are read: `producer` runs in a
    /// task of its own from the first `next()`, and each `write` waits while `bufferedPieces`
    /// pieces are written and not yet read, so a producer never runs ahead of its reader. When
    /// `producer` returns, the body ends; when it throws, the stream fails with
    /// `.failed(reason:)`; when the reader cancels, the producer's task is cancelled and its
    /// writes fail with `.cancelled`.
    ///
    /// - Parameters:
    ///   - length: the exact number of bytes `producer` writes, when known.
    ///   - bufferedPieces: how many written pieces may wait for the reader, at least 1.
    public static func writing(
        length: Int? = nil, bufferedPieces: Int = 2, by producer: @escaping @Sendable (HTTPBodyWriter) async throws -> Void
    ) -> HTTPBodyStream {
        HTTPBodyStream(length: length, source: HTTPBodyWriter.Source(capacity: max(bufferedPieces, 1), producer: producer))
    }

    /// A stream that gives `pieces` first and then what `rest` reads: bytes read ahead to judge a
    /// body (whether it fits a cache entry, say) handed back in front of it.
    public static func joining(_ pieces: [[UInt8]], then rest: HTTPBodyStream) -> HTTPBodyStream {
        HTTPBodyStream(length: rest.length, source: ReadAheadSource(pieces: pieces.filter { !$0.isEmpty }, rest: rest))
    }

    /// A stream of `bytes`, in one piece: a body that arrived whole, for a caller that reads streams.
    public static func whole(_ bytes: [UInt8]) -> HTTPBodyStream {
        HTTPBodyStream(length: bytes.count, source: ReadAheadSource(pieces: bytes.isEmpty ? [] : [bytes], rest: nil))
    }

    /// This stream held to `limit` bytes: reading past it fails with `.tooLarge` (and cancels
    /// this stream), as soon as the piece that crosses it arrives.
    public func limited(to limit: Int) -> HTTPBodyStream {
        HTTPBodyStream(length: length, source: LimitedSource(stream: self, limit: limit))
    }

    /// This stream, with `observer` called once when it ends: read to its end (`error` nil), failed
    /// (the error thrown), or cancelled or dropped before its end (`.cancelled`), with the bytes
    /// read through it until then. For what is known only when a streamed answer is over: its
    /// size and how it ended, for a log line or a metric.
    public func observingEnd(_ observer: @escaping @Sendable (_ bytes: Int, _ error: HTTPBodyError?) -> Void) -> HTTPBodyStream {
        HTTPBodyStream(length: length, source: ObservedSource(stream: self, observer: observer))
    }

    /// A stream that reports its end (`observingEnd`).
    ///
    /// `@unchecked Sendable`: `bytes` and `observer` change only in `next()` and `cancel()`, which
    /// the stream's contract keeps to one task at a time, and in `deinit`, when no one else holds it.
    private final class ObservedSource: HTTPBodySource, @unchecked Sendable {
        private let stream: HTTPBodyStream
        private var observer: (@Sendable (Int, HTTPBodyError?) -> Void)?
        private var bytes = 0

        init(stream: HTTPBodyStream, observer: @escaping @Sendable (Int, HTTPBodyError?) -> Void) {
            self.stream = stream
            self.observer = observer
        }

        func next() async throws(HTTPBodyError) -> [UInt8]? {
            do {
                guard let piece = try await stream.next() else {
                    end(nil)
                    return nil
                }
                bytes += piece.count
                return piece
            } catch {
                end(error)
                throw error
            }
        }

        func cancel() {
            stream.cancel()
            end(.cancelled)
        }

        deinit {
            end(.cancelled)
        }

        private func end(_ error: HTTPBodyError?) {
            guard let observer else { return }
            self.observer = nil
            observer(bytes, error)
        }
    }

    /// A stream that fails once more than `limit` bytes came through.
    ///
    /// `@unchecked Sendable`: `count` changes only in `next()`, which one task calls at a time.
    private final class LimitedSource: HTTPBodySource, @unchecked Sendable {
        private let stream: HTTPBodyStream
        private let limit: Int
        private var count = 0

        init(stream: HTTPBodyStream, limit: Int) {
            self.stream = stream
            self.limit = limit
        }

        func next() async throws(HTTPBodyError) -> [UInt8]? {
            guard let piece = try await stream.next() else { return nil }
            guard piece.count <= limit - count else {
                stream.cancel()
                throw .tooLarge(limit: limit)
            }
            count += piece.count
            return piece
        }

        func cancel() {
            stream.cancel()
        }
    }

    /// The pieces read ahead, then the rest, if any.
    ///
    /// `@unchecked Sendable`: `pieces` changes only in `next()`, and one task reads a stream at a
    /// time (the type's contract), so no two accesses overlap.
    private final class ReadAheadSource: HTTPBodySource, @unchecked Sendable {
        private var pieces: ArraySlice<[UInt8]>
        private let rest: HTTPBodyStream?

        init(pieces: [[UInt8]], rest: HTTPBodyStream?) {
            self.pieces = pieces[...]
            self.rest = rest
        }

        func next() async throws(HTTPBodyError) -> [UInt8]? {
            if let first = pieces.popFirst() { return first }
            return try await rest?.next()
        }

        func cancel() {
            pieces = []
            rest?.cancel()
        }
    }
}

/// What an `HTTPBodyStream` reads from: a socket behind a framing, a producer's writes.
///
/// Implementations are classes: a stream and its copies share one position. `cancel()` is called
/// by the reader, or when no read runs; to end a read that waits, cancel the reading task.
public protocol HTTPBodySource: AnyObject, Sendable {
    /// The next piece (never empty), or nil at the end of the body.
    func next() async throws(HTTPBodyError) -> [UInt8]?
    /// Releases what the source reads from; later reads fail with `.cancelled`.
    func cancel()
}

/// Why a streamed body could not be read whole.
public enum HTTPBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// More than `limit` bytes arrived.
    case tooLarge(limit: Int)
    /// The peer sent nothing for longer than the idle time allowed.
    case timedOut
    /// The reader or the peer gave up: a client that went away, a cancelled task.
    case cancelled
    /// The body broke off or could not be decoded (a connection closed inside it, a bad chunk,
    /// a producer that threw).
    case failed(reason: String)

    public var description: String {
        switch self {
        case .tooLarge(let limit): "body over \(limit) bytes"
        case .timedOut: "body stalled"
        case .cancelled: "body reading cancelled"
        case .failed(let reason): reason
        }
    }
}
