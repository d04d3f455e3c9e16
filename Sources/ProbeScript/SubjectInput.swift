/// `input NAME line "TEXT"|"BYTES"|hex".."|eof`: writes to the standard input of a subject
/// spawned `with stdin`, or closes it.
package struct SubjectInput: Sendable, Hashable {
    package enum Data: Sendable, Hashable {
        case bytes(Template)
        /// The text and a LF, as programs read their input's lines.
        case line(Template)
        case eof
    }

    package var name: Name
    package var data: Data

    package init(name: Name, data: Data) {
        self.name = name
        self.data = data
    }
}
