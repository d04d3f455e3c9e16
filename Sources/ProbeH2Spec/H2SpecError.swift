/// Why an `h2spec` run cannot go on, in words.
package struct H2SpecError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
