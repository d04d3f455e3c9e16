/// Deliberate breaches of RFC 6455 a WebSocket server can be told to make, so that a test
/// harness can prove it catches each.
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
}
