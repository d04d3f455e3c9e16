#if canImport(Glibc)
import Glibc
#endif

/// The one way tests wait for something that happens elsewhere (a process, a thread, a peer):
/// look at `condition` every `interval`, give up after `limit`. Bounded in time and in count,
/// as every loop in the tests is; a test states what it expected once this returns.
public enum Eventually {
    /// True once `condition` holds, false when `limit` passed first.
    @discardableResult
    public static func holds(within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(10),
                             _ condition: () throws -> Bool) async rethrows -> Bool {
        for _ in 0..<looks(limit, interval) {
            if try condition() { return true }
            try? await Task.sleep(for: interval)
        }
        return try condition()
    }

    /// The same on a thread of its own (or in a synchronous test), which it puts to sleep.
    @discardableResult
    public static func holdsBlocking(within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(10),
                                     _ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<looks(limit, interval) {
            if try condition() { return true }
            usleep(useconds_t(interval / .microseconds(1)))
        }
        return try condition()
    }

    private static func looks(_ limit: Duration, _ interval: Duration) -> Int {
        max(1, Int(limit / interval))
    }
}
