import ProbeResults
import ProbeScript

/// Bytes that arrived and that no expect read: named, failed or ignored as `set unread` says,
/// when their connection is closed or the scenario ends.
extension ScenarioExecution {
    /// Judges the unread bytes of every connection still open when the scenario, or a copy of a
    /// `parallel` block, has run its steps.
    @inline(never)
    func judgeUnreadAtEnd() async throws {
        for connection in table.all where !connection.isClosed {
            try await judgeUnread(connection, nil)
        }
    }

    /// Judges `connection`'s unread bytes before `statement` closes it (nil: the scenario ended).
    func judgeUnread(_ connection: ProbeConnection, _ statement: Statement?) async throws {
        // Copies of a parallel block keep no notes; they can still fail.
        guard settings.unread == .fail || (settings.unread == .note && copyIndex == nil) else { return }
        let session = connection.webSocket
        guard let (head, count, decoded) = try? await connection.onLoop({ handler in
            (handler.unreadHead(80), handler.unconsumedBytes, Self.decodedUnread(webSocket: session, http2: handler.layer, showing: 3))
        }), count > 0 || decoded.count > 0 else { return }
        let when = statement == nil ? "when the scenario ended" : "when it was closed"
        var unread: [String] = []
        if decoded.count > 0 {
            let shown = decoded.shown.joined(separator: ", ")
            unread.append("\(decoded.count.counted(decoded.noun)) decoded and not read (\(shown)\(decoded.count > 3 ? ", …" : ""))")
        }
        if count > 0 { unread.append(count.counted("unread byte")) }
        let what = "\(connection.label) had \(unread.joined(separator: " and ")) \(when)" + (count > 0 ? ": " + ByteEscaper.preview(head, limit: 80, total: count) : "")
        if settings.unread == .note {
            runRecord.notes.append(what + " (no expect read them; `set unread fail` makes this a failure)")
            return
        }
        let location = statement?.location ?? scenario.statements.last?.location ?? SourceLocation(file: scenario.path, line: 1, column: 1)
        throw StepFailure(at: location, step: statement?.text ?? "end of scenario", reason: ConnectionFailure.unread(what), connection: connection.label)
    }

    /// What a connection's layer decoded that no expect took: WebSocket messages and control
    /// frames, or HTTP/2 frames (those the probe answered in the background too, marked so);
    /// how many, and the first `showing` described.
    static func decodedUnread(webSocket: WebSocketSession?, http2: HTTP2Session?, showing: Int) -> (noun: String, count: Int, shown: [String]) {
        if let webSocket {
            let events = webSocket.undelivered
            return ("WebSocket message", events.count, events.prefix(showing).map(\.description))
        }
        let frames = http2?.undelivered ?? []
        return ("HTTP/2 frame", frames.count, frames.prefix(showing).map(\.description))
    }
}
