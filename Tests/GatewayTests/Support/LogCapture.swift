import Glibc

@testable import Gateway

/// A `LogOutput` whose lines a test reads back through a pipe.
final class LogCapture {
    let output: LogOutput
    private let readDescriptor: Int32
    private let writeDescriptor: Int32
    private var received: [UInt8] = []

    init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw CaptureError.noPipe }
        (readDescriptor, writeDescriptor) = (descriptors[0], descriptors[1])
        _ = fcntl(readDescriptor, F_SETFL, O_NONBLOCK)
        output = LogOutput(descriptor: writeDescriptor, interval: .milliseconds(10))
    }

    private enum CaptureError: Error { case noPipe }

    /// The lines written so far, read until `isComplete` holds for them or `timeout` passes
    /// (the output flushes on its own schedule, so this polls).
    func lines(until isComplete: ([String]) -> Bool, timeout: Duration = .seconds(10)) async -> [String] {
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

    func close() {
        output.close()
        Glibc.close(writeDescriptor)
        Glibc.close(readDescriptor)
    }
}
