/// One client of the server: reads its events in order and answers as the protocol says (or as
/// its quirks break it); with a heartbeat, pings it every so often and drops it when a ping goes
/// unanswered.
actor ChatSession {
    let transport: any TCPTransport
    let room: ChatRoom
    let quirks: ChatQuirks
    let heartbeat: Duration?
    private var chat = ChatProtocol()
    private var closing = false
    /// A ping was sent and no pong has come since.
    private var awaitingPong = false
    /// The pongs the client sent.
    private var pongs = 0

    init(transport: any TCPTransport, room: ChatRoom, quirks: ChatQuirks, heartbeat: Duration?) {
        self.transport = transport
        self.room = room
        self.quirks = quirks
        self.heartbeat = heartbeat
    }

    func run() async {
        transport.start()
        let beating = heartbeat.map { interval in Task { await self.beat(every: interval) } }
        defer { beating?.cancel() }
        for await event in transport.events {
            switch event {
            case .started:
                break
            case .received(let line):
                guard !closing else { continue }
                if line == "pong" { (awaitingPong, pongs) = (false, pongs + 1) }
                for action in chat.handle(line) {
                    switch action {
                    case .reply(let text):
                        if text == "pong", quirks.contains(.lateReply) { try? await Task.sleep(for: .milliseconds(250)) }
                        await reply(text)
                    case .broadcast(let text):
                        await room.broadcast(text)
                    case .replyAndClose(let text):
                        await reply(text)
                        close()
                    }
                }
            case .framingError:
                await reply("ERR line too long")
                close()
            case .peerClosed:
                // Correct: the replies to everything received are already queued; now FIN.
                if !quirks.contains(.ignoresHalfClose) { close() }
            case .stopped:
                await room.leave(self)
                return
            }
        }
        await room.leave(self)
    }

    /// Sends one line, framed as the quirks (if any) frame it.
    func reply(_ line: String) async {
        guard !closing else { return }
        if !quirks.contains(.lfOnly), quirks.contains(.splitReplies) || (quirks.contains(.splitsLongReplies) && line.utf8.count > 64) {
            let bytes = LineFraming.frame(line)
            let half = max(1, bytes.count / 2)
            transport.send(bytes: Array(bytes[..<half]))
            try? await Task.sleep(for: .milliseconds(30))
            transport.send(bytes: Array(bytes[half...]))
        } else {
            quirks.send(line, on: transport)
        }
    }

    /// Every `interval`: drops the client when its last ping is unanswered, else pings it.
    private func beat(every interval: Duration) async {
        while !closing, (try? await Task.sleep(for: interval)) != nil, !closing {
            if awaitingPong || (quirks.contains(.dropsAnsweredHeartbeats) && pongs > 0) {
                await reply("ERR ping timeout")
                close()
                return
            }
            await reply("ping")
            awaitingPong = true
        }
    }

    private func close() {
        guard !closing else { return }
        closing = true
        if quirks.contains(.resetsInsteadOfClosing) { transport.abort() } else { transport.stop() }
    }
}
