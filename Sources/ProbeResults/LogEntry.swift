import ProbeScript

/// One line of a scenario's step log: what the probe did or saw, and when.
package struct LogEntry: Sendable {
    /// Time since the scenario started.
    package var offset: Duration
    package var location: SourceLocation?
    package var message: String

    package init(offset: Duration, location: SourceLocation?, message: String) {
        self.offset = offset
        self.location = location
        self.message = message
    }
}
