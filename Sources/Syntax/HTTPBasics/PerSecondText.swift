import Synchronization

/// Text that depends only on the current second (a `Date` field, a log timestamp's date and
/// time), formatted once per second and shared by every thread that appends it.
public final class PerSecondText: Sendable {
    private struct Cached {
        var second: Int
        var bytes: [UInt8]
    }

    private let format: @Sendable (Int) -> [UInt8]
    private let cache = Mutex(Cached(second: .min, bytes: []))

    /// - Parameter format: the text of a POSIX second.
    public init(format: @escaping @Sendable (_ secondsSince1970: Int) -> [UInt8]) {
        self.format = format
    }

    /// Appends the text of `second` to `buffer`, formatting it only when the second has changed.
    public func append(second: Int, to buffer: inout [UInt8]) {
        cache.withLock { cached in
            if cached.second != second {
                cached = Cached(second: second, bytes: format(second))
            }
            buffer.append(contentsOf: cached.bytes)
        }
    }
}
