/// A problem found in a scenario file, with where it is and what was expected there.
public struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning, note }

    public var severity: Severity
    public var location: SourceLocation
    public var message: String
    /// How many columns the caret underline spans (at least 1).
    public var length: Int
    /// A "did you mean ..." or other remedy, printed after the message.
    public var hint: String?

    public init(_ severity: Severity = .error, at location: SourceLocation, length: Int = 1, _ message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.length = max(1, length)
        self.message = message
        self.hint = hint
    }

    /// `file:line:column: error: message (hint)` on one line.
    public var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let hint { text += " (\(hint))" }
        return text
    }
}
