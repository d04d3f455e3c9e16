#if canImport(Glibc)
import Glibc
#endif

/// Runs a blocking loop on a thread of its own that nobody joins, like Foundation's `Thread`
/// without linking Foundation (whose loading would cost every start of tcpprobe: BENCHMARKS.md 6).
package enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new detached thread; traps when the system refuses a thread.
    package static func run(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(result == 0, "cannot start a thread: \(String(cString: strerror(result)))")
    }
}
