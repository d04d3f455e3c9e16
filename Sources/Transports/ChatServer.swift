/// The reference protocol's server (docs/reference-protocol.md) over any transport: every
/// connection the listener hands out joins the room at once and is answered line by line. An
/// adapter that puts a transport through the line suites is a listener and this.
public struct ChatServer: Sendable {
    public let listener: any TransportListener
    /// How often each client is pinged, and how long it has to answer; nil for no heartbeat.
    public var heartbeat: Duration?
    /// Breaches of the protocol to make on purpose (none by default).
    public var quirks: ChatQuirks

    public init(listener: any TransportListener, heartbeat: Duration? = nil, quirks: ChatQuirks = []) {
        self.listener = listener
        self.heartbeat = heartbeat
        self.quirks = quirks
    }

    /// Serves until the listener's connections end.
    public func run() async {
        let room = ChatRoom()
        await withDiscardingTaskGroup { group in
            for await connection in listener.connections {
                // Joined in accept order, before its first line is read.
                let session = ChatSession(transport: connection, room: room, quirks: quirks, heartbeat: heartbeat)
                await room.join(session)
                if quirks.contains(.servesOneAtATime) { await session.run() } else { group.addTask { await session.run() } }
            }
        }
    }
}
