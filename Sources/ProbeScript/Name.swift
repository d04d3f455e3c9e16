/// A connection, listener or subject name as written, with where it was written.
public struct Name: Sendable, Hashable, CustomStringConvertible {
    public var text: String
    public var location: SourceLocation

    public init(_ text: String, at location: SourceLocation) {
        self.text = text
        self.location = location
    }

    public var description: String { text }
}
