import HTTP1
import HTTPBasics
import NetworkRuntime

/// A response body read from its connection as the stream's reader asks for it: the source of
/// the `bodyStream` of a response `HTTPClient.send` streams.
///
/// The connection stays lent to the stream until the body is read to its end (then it goes back
/// to the pool, reusable when both sides keep it alive), fails, or is cancelled or dropped (then
/// it is closed). Each read waits at most `StreamingRelease.idleTimeout`: a stream lives as long
/// as it moves, however long that is.
///
/// `@unchecked Sendable`: `progress` and `release` change only in `next()` and `cancel()`, which
/// the stream's contract keeps to one task at a time (`cancel` is called by the reader, or when
/// no read runs); `deinit` runs when no one else holds the reader.
final class ResponseBodyReader: HTTPBodySource, @unchecked Sendable {
    private let connection: ClientConnection
    private var progress: ClientConnection.BodyProgress
    private var release: StreamingRelease?

    init(connection: ClientConnection, progress: ClientConnection.BodyProgress, release: StreamingRelease) {
        self.connection = connection
        self.progress = progress
        self.release = release
    }

    func next() async throws(HTTPBodyError) -> [UInt8]? {
        guard let release else { return progress.isComplete ? nil : try Self.fail(.cancelled) }
        do {
            if let piece = try await connection.nextPiece(of: &progress, deadline: .now + release.idleTimeout) { return piece }
            finish(reusable: true)
            return nil
        } catch {
            connection.close()
            finish(reusable: false)
            progress.isComplete = false
            switch error {
            case .timedOut: throw .timedOut
            case .cancelled: throw .cancelled
            default: throw .failed(reason: "upstream body: \(error)")
            }
        }
    }

    func cancel() {
        guard release != nil else { return }
        connection.close()
        finish(reusable: false)
        progress.isComplete = false
    }

    deinit {
        if let release {
            connection.close()
            release.release(connection)
        }
    }

    private func finish(reusable: Bool) {
        guard let release else { return }
        self.release = nil
        if !reusable { connection.close() }
        release.release(connection)
    }

    private static func fail(_ error: HTTPBodyError) throws(HTTPBodyError) -> [UInt8]? {
        throw error
    }
}

/// What `HTTPClient.send` needs of a streamed answer: which bodies stream, how long a read of
/// one may wait, and how its connection goes back to the pool.
final class StreamingRelease: Sendable {
    /// Bodies whose length is known and at most this are read whole.
    let wholeBodyLimit: Int
    let idleTimeout: Duration
    let release: @Sendable (ClientConnection) -> Void

    init(wholeBodyLimit: Int, idleTimeout: Duration, release: @escaping @Sendable (ClientConnection) -> Void) {
        self.wholeBodyLimit = wholeBodyLimit
        self.idleTimeout = idleTimeout
        self.release = release
    }

    /// Whether a body of `framing` streams rather than being read whole.
    func streams(_ framing: ResponseHead.Framing) -> Bool {
        switch framing {
        case .none: false
        case .contentLength(let length): length > wholeBodyLimit
        case .chunked, .untilClose: true
        }
    }
}
