import Synchronization

/// The writing end of a stream made by `HTTPBodyStream.writing(length:bufferedPieces:by:)`.
///
/// `write` hands a piece to the reader and returns at once while fewer than the stream's
/// `bufferedPieces` pieces wait; otherwise it waits until the reader takes one. So a producer
/// that writes faster than its client reads is slowed to the client's pace, holding at most
/// that many pieces.
public final class HTTPBodyWriter: Sendable {
    private let state: Mutex<State>
    private let capacity: Int

    private struct State {
        var pieces: [[UInt8]] = []
        /// How the body ended once the producer is done: nil (ended) or its failure.
        var end: HTTPBodyError??
        var isCancelled = false
        var reader: CheckedContinuation<Void, Never>?
        var writer: CheckedContinuation<Void, Never>?
    }

    init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(State())
    }

    /// Sends `piece` to the reader; an empty piece is skipped.
    ///
    /// - Throws: `.cancelled` when the reader stopped reading (a client that went away): the
    ///   producer should stop.
    public func write(_ piece: [UInt8]) async throws(HTTPBodyError) {
        guard !piece.isEmpty else { return }
        while true {
            let (accepted, reader, cancelled) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?, Bool) in
                if state.isCancelled || state.end != nil { return (false, nil, true) }
                guard state.pieces.count < capacity else { return (false, nil, false) }
                state.pieces.append(piece)
                defer { state.reader = nil }
                return (true, state.reader, false)
            }
            reader?.resume()
            if cancelled { throw .cancelled }
            if accepted { return }
            let room = capacity
            await wait(in: \.writer) { $0.isCancelled || $0.pieces.count < room }
            if Task.isCancelled { throw .cancelled }
        }
    }

    /// Ends the body after the pieces written; `failure` fails the reader's next read instead.
    func finish(failure: HTTPBodyError? = nil) {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.end == nil { state.end = .some(failure) }
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume()
    }

    /// The reader's side: the next piece, waiting for the producer when none is written.
    fileprivate func read() async throws(HTTPBodyError) -> [UInt8]? {
        while true {
            let (piece, end, writer) = state.withLock { state -> ([UInt8]?, HTTPBodyError??, CheckedContinuation<Void, Never>?) in
                if state.isCancelled { return (nil, .some(.cancelled), nil) }
                if !state.pieces.isEmpty {
                    let piece = state.pieces.removeFirst()
                    defer { state.writer = nil }
                    return (piece, nil, state.writer)
                }
                return (nil, state.end, nil)
            }
            writer?.resume()
            if let piece { return piece }
            if let end {
                if let failure = end { throw failure }
                return nil
            }
            await wait(in: \.reader) { $0.isCancelled || !$0.pieces.isEmpty || $0.end != nil }
            if Task.isCancelled { throw .cancelled }
        }
    }

    /// Waits, its continuation kept in `slot`, until the other side resumes it, unless `isReady`
    /// already holds; the task's cancellation ends the wait too.
    private func wait(
        in slot: any WritableKeyPath<State, CheckedContinuation<Void, Never>?> & Sendable, unless isReady: @escaping @Sendable (State) -> Bool
    ) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if isReady(state) || Task.isCancelled { return true }
                    state[keyPath: slot] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state[keyPath: slot] = nil }
                return state[keyPath: slot]
            }
            waiter?.resume()
        }
    }

    /// The reader stopped: pending and later writes fail, buffered pieces are dropped.
    fileprivate func cancelByReader() {
        let (reader, writer) = state.withLock { state in
            state.isCancelled = true
            state.pieces = []
            defer {
                state.reader = nil
                state.writer = nil
            }
            return (state.reader, state.writer)
        }
        reader?.resume()
        writer?.resume()
    }

    /// A writer's stream as a source: the producer starts with the first read.
    final class Source: HTTPBodySource {
        private let writer: HTTPBodyWriter
        private let producer: @Sendable (HTTPBodyWriter) async throws -> Void
        private let task = Mutex<Task<Void, Never>?>(nil)
        private let started = Atomic<Bool>(false)

        init(capacity: Int, producer: @escaping @Sendable (HTTPBodyWriter) async throws -> Void) {
            writer = HTTPBodyWriter(capacity: capacity)
            self.producer = producer
        }

        func next() async throws(HTTPBodyError) -> [UInt8]? {
            if !started.exchange(true, ordering: .acquiringAndReleasing) {
                let (writer, producer) = (writer, producer)
                let running = Task {
                    do {
                        try await producer(writer)
                        writer.finish()
                    } catch let error as HTTPBodyError {
                        writer.finish(failure: error == .cancelled ? .cancelled : error)
                    } catch {
                        writer.finish(failure: .failed(reason: "the body's producer failed: \(error)"))
                    }
                }
                let cancelled = task.withLock { task in
                    task = running
                    return writer.state.withLock { $0.isCancelled }
                }
                if cancelled { running.cancel() }
            }
            return try await writer.read()
        }

        func cancel() {
            writer.cancelByReader()
            task.withLock { $0 }?.cancel()
        }

        deinit {
            cancel()
        }
    }
}
