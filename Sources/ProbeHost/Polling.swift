#if canImport(Glibc)
import Glibc
#endif

/// Waiting for a condition no event announces (a process's exit, a port listening, a stream's
/// end), by asking again every few milliseconds, never longer than a limit.
package enum Polling {
    /// Asks `condition` now and then every `interval` until it holds or `limit` has passed;
    /// true when it held.
    package static func until(within limit: Duration, every interval: Duration = .milliseconds(5), _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            if condition() { return true }
            if clock.now >= deadline { return false }
            try? await Task.sleep(for: min(interval, deadline - clock.now))
        }
    }

    /// The same, blocking the thread between asks: for signal handlers and process exit, where
    /// no task can wait.
    package static func blockingUntil(within limit: Duration, every interval: Duration = .milliseconds(5), _ condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            if condition() { return true }
            if clock.now >= deadline { return false }
            let pause = min(interval, deadline - clock.now)
            usleep(useconds_t(max(0, pause / .microseconds(1))))
        }
    }
}
