/// A connection, listener or subject name as written, with where it was written.
package struct Name: Sendable, Hashable, CustomStringConvertible {
    package var text: String
    package var location: SourceLocation

    package init(_ text: String, at location: SourceLocation) {
        self.text = text
        self.location = location
    }

    package var description: String { text }
}
