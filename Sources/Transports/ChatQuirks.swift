/// Deliberate breaches of the reference protocol (docs/reference-protocol.md) a chat server can
/// be told to make, so that a test harness can prove it catches each.
public struct ChatQuirks: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Ends its replies in a bare LF instead of CR LF.
    public static let lfOnly = ChatQuirks(rawValue: 1 << 0)
    /// Writes each reply in two writes, 30 ms apart.
    public static let splitReplies = ChatQuirks(rawValue: 1 << 1)
    /// Answers `ping` 250 ms late: past the 200 ms the protocol allows.
    public static let lateReply = ChatQuirks(rawValue: 1 << 2)
    /// Ends a connection with RST instead of FIN.
    public static let resetsInsteadOfClosing = ChatQuirks(rawValue: 1 << 3)
    /// Never closes after the client's half-close.
    public static let ignoresHalfClose = ChatQuirks(rawValue: 1 << 4)
    /// With a heartbeat: drops a client that answered a ping at the next, as if it had not.
    public static let dropsAnsweredHeartbeats = ChatQuirks(rawValue: 1 << 5)
    /// Writes each reply over 64 bytes in two writes, 30 ms apart; shorter ones whole.
    public static let splitsLongReplies = ChatQuirks(rawValue: 1 << 6)
    /// Serves one client at a time: the next is read only once the one before has left.
    public static let servesOneAtATime = ChatQuirks(rawValue: 1 << 7)

    /// Sends `line` on `transport` ended as these quirks end it: a bare LF with `lfOnly`, else CR LF.
    func send(_ line: String, on transport: any TCPTransport) {
        if contains(.lfOnly) { transport.send(bytes: Array(line.utf8) + [10]) } else { transport.send(line: line) }
    }
}
