import ProbeScript

/// An `assert copies` or `assert latency` a part of a load (`run --part`) leaves for
/// `tcpprobe merge`, which judges it once on the whole load's copies and latencies.
package struct UnjudgedAssertion: Sendable, Equatable {
    /// Where the step is.
    package var location: SourceLocation
    /// The step with its values resolved: `assert copies passed >= 99.9%`.
    package var step: String
    /// The `parallel` block it judges.
    package var block: SourceLocation

    package init(location: SourceLocation, step: String, block: SourceLocation) {
        self.location = location
        self.step = step
        self.block = block
    }
}
