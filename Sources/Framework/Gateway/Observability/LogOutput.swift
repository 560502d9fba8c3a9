import Foundation
import Glibc
import Synchronization

/// Buffers whole log lines and writes them to a file descriptor from a background thread, so a
/// request never waits on a slow terminal or pipe and lines from concurrent requests never mix.
///
/// Lines are flushed every `interval` (and when `flush()` is called, such as at shutdown), each
/// batch with as few `write(2)` calls as the descriptor allows.
final class LogOutput: Sendable {
    private let descriptor: Int32
    private let pending = Mutex<[UInt8]>([])
    /// Held while a batch is written; requests only ever take `pending`. It holds the buffer
    /// swapped in for the next batch, which keeps its capacity, so `pending` does not regrow
    /// from empty (a copy at every doubling) after each flush.
    private let writing = Mutex<[UInt8]>([])
    private let isStopped = Atomic<Bool>(false)
    /// Buffered bytes beyond which new lines are dropped rather than growing memory without bound.
    private let capacity: Int
    /// The largest buffer kept for the next batch (at 20,000 requests a second, a 50 ms batch of
    /// access lines is about 300 KB); a burst's larger one is given back.
    private let retainedCapacity = 1 << 20

    init(descriptor: Int32 = STDOUT_FILENO, interval: Duration = .milliseconds(50), capacity: Int = 8 << 20) {
        self.descriptor = descriptor
        self.capacity = capacity
        // The thread sleeps before each flush, so the first batch holds what was queued in the
        // first interval (not whatever the thread found the instant it started), and it holds
        // the output only while flushing, so a closed output is freed without waiting a sleep.
        let thread = Thread { [weak self] in
            let microseconds = useconds_t(max(1, interval.nanoseconds / 1000))
            while true {
                usleep(microseconds)
                guard let output = self, !output.isStopped.load(ordering: .relaxed) else { return }
                output.flush()
            }
        }
        thread.name = "log-output"
        thread.start()
    }

    /// Queues one complete line (with its trailing newline), which `appendLine` appends to the
    /// queue in place, so a line is neither allocated nor copied on its own. A line that would
    /// take the queue past its capacity is dropped.
    func write(_ appendLine: (inout [UInt8]) -> Void) {
        pending.withLock { buffer in
            let lineStart = buffer.count
            guard lineStart < capacity else { return }
            appendLine(&buffer)
            if buffer.count > capacity { buffer.removeSubrange(lineStart...) }
        }
    }

    /// Writes everything queued so far. Batches are written one at a time, so lines keep
    /// their order even when `close()` and the background thread flush at once.
    func flush() {
        writing.withLock { batch in
            pending.withLock { swap(&$0, &batch) }
            defer {
                if batch.capacity > retainedCapacity { batch = [] } else { batch.removeAll(keepingCapacity: true) }
            }
            guard !batch.isEmpty else { return }
            batch.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && (errno == EINTR || errno == EAGAIN) {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }

    /// Flushes and stops the background thread.
    func close() {
        isStopped.store(true, ordering: .relaxed)
        flush()
    }
}
