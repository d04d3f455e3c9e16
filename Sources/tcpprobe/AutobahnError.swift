/// Why an `autobahn` command cannot go on, in words.
struct AutobahnError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
