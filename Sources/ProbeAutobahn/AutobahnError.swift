/// Why an `autobahn` command cannot go on, in words.
package struct AutobahnError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
