import Glibc

/// A plain POSIX thread running one closure to its end, for the work that must not wait on
/// Swift's cooperative pool: an event loop's `epoll_wait`, a blocking read of signal bytes.
package enum DetachedThread {
    /// Starts a detached thread that runs `body`; the thread holds `body` (and what it captures)
    /// until `body` returns.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SocketError) {
        final class Body: Sendable {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
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
