/// `input NAME line "TEXT"|"BYTES"|hex".."|eof`: writes to the standard input of a subject
/// spawned `with stdin`, or closes it.
public struct SubjectInput: Sendable, Hashable {
    public enum Data: Sendable, Hashable {
        case bytes(Template)
        /// The text and a LF, as programs read their input's lines.
        case line(Template)
        case eof
    }

    public var name: Name
    public var data: Data

    public init(name: Name, data: Data) {
        self.name = name
        self.data = data
    }
}
