import ProbeScript

/// A step as the scenario ran it, for the HTML report: where it stands, how it reads, and when
/// it began. The segments between its start and the next step's belong to it.
package struct StepSpan: Sendable, Equatable {
    /// Seconds since the scenario started, as the step log counts.
    package var start: Double
    package var location: SourceLocation
    /// The statement as written (its first line).
    package var text: String

    package init(start: Double, location: SourceLocation, text: String) {
        self.start = start
        self.location = location
        self.text = text
    }
}
