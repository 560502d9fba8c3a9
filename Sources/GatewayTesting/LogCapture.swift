import Glibc

/// A pipe a gateway under test writes its log lines into (`logDescriptor`), and the lines a
/// test reads back from it.
package final class LogCapture {
    /// The write end: give it to the gateway, and keep the capture open until the gateway stops.
    package let descriptor: Int32
    private let readDescriptor: Int32
    private var received: [UInt8] = []

    /// Opens the pipe.
    package init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw CaptureError.noPipe }
        (readDescriptor, descriptor) = (descriptors[0], descriptors[1])
        _ = fcntl(readDescriptor, F_SETFL, O_NONBLOCK)
    }

    /// The pipe could not be opened.
    package enum CaptureError: Error { case noPipe }

    /// The lines written so far, read until `isComplete` holds for them or `timeout` passes
    /// (a gateway flushes its log on its own schedule, so this polls).
    package func lines(until isComplete: ([String]) -> Bool, timeout: Duration = .seconds(10)) async -> [String] {
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            while case let count = read(readDescriptor, &chunk, chunk.count), count > 0 {
                received += chunk[..<count]
            }
            let lines = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
            if isComplete(lines) || ContinuousClock.now >= deadline { return lines }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Closes both ends, once whatever writes to `descriptor` has stopped.
    package func close() {
        Glibc.close(descriptor)
        Glibc.close(readDescriptor)
    }
}
