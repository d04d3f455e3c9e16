import ProbeScript

/// What `set` statements change as a scenario runs, in one value: each step reads it, and a
/// copy of a `parallel` block starts with the one in force at the block.
struct Settings {
    /// A step's own limit, unless its `within` says.
    var timeout: Duration = .seconds(5)
    /// The whole scenario's limit.
    var deadline: Duration = .seconds(60)
    var terminator: Terminator = .crlf
    var maxLine = 64 * 1024
    var unread = UnreadPolicy.note

    /// The framing a connection's expects and `send line` use under these settings.
    var framing: any Framing { TerminatedLineFraming(terminator: terminator.bytes, maxLine: maxLine) }
}
