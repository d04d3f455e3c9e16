import ProbeFraming

/// A frame the peer sent, as the expects see it: the frame, the header fields its block
/// decoded to (on a HEADERS or PUSH_PROMISE that ended its block), why the block did not
/// decode, and what the probe answered in the background.
struct HTTP2ReceivedFrame {
    let frame: HTTP2Frame
    var fields: [(name: String, value: String)]?
    var blockProblem: String?
    /// "acked" (a SETTINGS) or "answered" (a PING), when the session did.
    var answered: String?

    init(frame: HTTP2Frame, fields: [(name: String, value: String)]? = nil, blockProblem: String? = nil, answered: String? = nil) {
        self.frame = frame
        self.fields = fields
        self.blockProblem = blockProblem
        self.answered = answered
    }

    /// `HEADERS stream 1 END_HEADERS · :status 200 · content-type text/plain`.
    var description: String {
        var text = frame.summary
        if let fields { text += fields.map { " · \($0.name) \($0.value)" }.joined() }
        if let blockProblem { text += " (\(blockProblem))" }
        if let answered { text += " (\(answered))" }
        return text
    }

    /// The value of the first field named `name`.
    func field(_ name: String) -> String? {
        fields?.first { $0.name == name }?.value
    }
}
