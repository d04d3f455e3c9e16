import ProbeScript

/// Why a scenario did not pass, pointing at the step that decided it.
package struct StepFailure: Error, Sendable {
    package enum Kind: Sendable, Equatable {
        /// An expectation or assertion was not met (exit code 1).
        case assertion
        /// The environment stopped the run: cannot spawn, bind or capture (exit code 3).
        case environment
    }

    /// The reason's kind: who stopped the run.
    package var kind: Kind { reason.kind }
    package var location: SourceLocation
    /// The step as written.
    package var step: String
    /// What the step found, typed: the family's reason with its fields.
    package var reason: any FailureReason
    /// The reason's words, with what the run adds around them (which parallel copy, which swept
    /// split, what the watch dropped) and any redaction: what reports show.
    package var message: String
    /// The connection the step acted on, as reports name it.
    package var connection: String?
    /// How long the step waited before it failed.
    package var waited: Duration?
    /// The last bytes received on that connection, and how many arrived in all; nil when the
    /// failure did not look (a report then says nothing of what was received).
    package var recentBytes: [UInt8] = []
    package var totalReceived: Int?
    /// When the captured segments the failure names were seen (seconds since the scenario
    /// started, as `WireEvent.offset`), so a report can show them.
    package var namedSegments: [Double] = []

    package init(at location: SourceLocation, step: String, reason: any FailureReason,
                connection: String? = nil, waited: Duration? = nil) {
        self.location = location
        self.step = step
        self.reason = reason
        self.message = reason.description
        self.connection = connection
        self.waited = waited
    }
}
