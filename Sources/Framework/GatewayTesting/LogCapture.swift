import Glibc
import Synchronization

/// The log lines a gateway under test writes, for a test to read back: give it to
/// `withGateway(catalog:upstreams:environment:log:_:)` (or the loopback variant, or
/// `GatewayUnderTest`'s initialisers), and read `lines(until:timeout:)` during or after the run.
///
/// ```swift
/// let log = try LogCapture()
/// defer { log.close() }
/// try await withGateway(catalog: catalog, upstreams: ["weather": weather], log: log) { gateway in
///     _ = try await gateway.get("/v1/forecast/oslo")
/// }
/// let lines = await log.lines { $0.contains { $0.contains(#""path":"/v1/forecast/oslo""#) } }
/// ```
///
/// Each line is one JSON object: an access log line per request, and the events the gateway
/// logs (see the operations guide for their fields). Keep the capture open until the gateway
/// has stopped, and read it now and then in a long test: a pipe holds only so much.
public final class LogCapture: Sendable {
    /// The write end the gateway logs to.
    package let descriptor: Int32
    private let readDescriptor: Int32
    private let received = Mutex<[UInt8]>([])

    /// Opens the pipe the gateway will write into.
    ///
    /// - Throws: `LogCapture.CaptureError.noPipe` when the process has no descriptors left.
    public init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw CaptureError.noPipe }
        (readDescriptor, descriptor) = (descriptors[0], descriptors[1])
        _ = fcntl(readDescriptor, F_SETFL, O_NONBLOCK)
    }

    /// Why a capture could not start.
    public enum CaptureError: Error {
        /// The pipe could not be opened.
        case noPipe
    }

    /// The lines written so far, read until `isComplete` holds for them or `timeout` passes;
    /// a gateway writes its log on its own schedule, so this looks again every 10 ms.
    public func lines(until isComplete: ([String]) -> Bool = { _ in true }, timeout: Duration = .seconds(10)) async -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let lines = readAvailable()
            if isComplete(lines) || ContinuousClock.now >= deadline { return lines }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Closes both ends, once the gateway writing to it has stopped.
    public func close() {
        Glibc.close(descriptor)
        Glibc.close(readDescriptor)
    }

    private func readAvailable() -> [String] {
        received.withLock { received in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while case let count = read(readDescriptor, &chunk, chunk.count), count > 0 {
                received += chunk[..<count]
            }
            return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }
}
