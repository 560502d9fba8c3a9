import Glibc

/// A plain POSIX thread running one closure to its end, for the work that must not wait on
/// Swift's cooperative pool: an event loop's `epoll_wait`, a blocking read of signal bytes.
package enum DetachedThread {
    /// The stack of every such thread: set, rather than the environment's (`ulimit -s` may be
    /// small, or unlimited, which glibc turns into 2 MiB), because the recursion that parsing and
    /// decoding may do there is bounded by depth and must fit in it: a body decoded into a
    /// recursive model nests up to `JSONByteDecoder.maximumDepth` (512) levels. Untouched pages
    /// cost no memory.
    package static let stackBytes = 8 << 20

    /// Starts a detached thread that runs `body`; the thread holds `body` (and what it captures)
    /// until `body` returns.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SocketError) {
        final class Body: Sendable {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw .failed(call: "pthread_create", errno: result)
        }
        pthread_detach(thread)
    }
}
