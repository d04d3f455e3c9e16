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
}
