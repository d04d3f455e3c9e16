/// Deliberate breaches of RFC 6455 a WebSocket server can be told to make, so that a test
/// harness can prove it catches each: the first four by the chat's `WebSocketTransportListener`,
/// the rest by `WebSocketEchoServer`.
public struct WebSocketQuirks: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Masks the frames it sends (a server must not, §5.1).
    public static let masksFrames = WebSocketQuirks(rawValue: 1 << 0)
    /// Sends each message in two fragments, the second wrongly opened as a new text frame
    /// instead of a continuation (§5.4), so no client can join them.
    public static let badFragments = WebSocketQuirks(rawValue: 1 << 1)
    /// Ends the connection with a bare TCP close: no close frame, and none answering the
    /// client's (§5.5.1).
    public static let noCloseFrame = WebSocketQuirks(rawValue: 1 << 2)
    /// Accepts messages of any size instead of closing with 1009 past its maximum.
    public static let noMaxMessage = WebSocketQuirks(rawValue: 1 << 3)

    /// Echoes text that is not UTF-8 instead of closing with 1007 (§8.1).
    public static let acceptsInvalidUTF8 = WebSocketQuirks(rawValue: 1 << 4)
    /// Takes frames with reserved bits set as if they were clear (§5.2).
    public static let ignoresReservedBits = WebSocketQuirks(rawValue: 1 << 5)
    /// Answers a ping with a pong that carries no payload instead of the ping's (§5.5.3).
    public static let emptyPongs = WebSocketQuirks(rawValue: 1 << 6)
    /// Neither answers nor closes on a fragmented control frame (§5.5): the connection hangs.
    public static let ignoresFragmentedControl = WebSocketQuirks(rawValue: 1 << 7)
    /// Takes fragments out of order (§5.4): a continuation with nothing to continue as a new
    /// message, a new message inside a fragmented one as its continuation.
    public static let acceptsFragmentsOutOfOrder = WebSocketQuirks(rawValue: 1 << 8)
    /// Answers a close frame without a code with the code 1005, which must never be sent (§7.4.1).
    public static let sendsCode1005 = WebSocketQuirks(rawValue: 1 << 9)
}
