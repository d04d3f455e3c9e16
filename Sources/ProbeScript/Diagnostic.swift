/// A problem found in a scenario file, with where it is and what was expected there.
package struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    package enum Severity: String, Sendable { case error, warning, note }

    package var severity: Severity
    package var location: SourceLocation
    package var message: String
    /// How many columns the caret underline spans (at least 1).
    package var length: Int
    /// A "did you mean ..." or other remedy, printed after the message.
    package var hint: String?

    package init(_ severity: Severity = .error, at location: SourceLocation, length: Int = 1, _ message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.length = max(1, length)
        self.message = message
        self.hint = hint
    }

    /// `file:line:column: error: message (hint)` on one line.
    package var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let hint { text += " (\(hint))" }
        return text
    }
}
