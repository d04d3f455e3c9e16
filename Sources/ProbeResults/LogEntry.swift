import ProbeScript

/// One line of a scenario's step log: what the probe did or saw, and when.
public struct LogEntry: Sendable {
    /// Time since the scenario started.
    public var offset: Duration
    public var location: SourceLocation?
    public var message: String

    public init(offset: Duration, location: SourceLocation?, message: String) {
        self.offset = offset
        self.location = location
        self.message = message
    }
}
