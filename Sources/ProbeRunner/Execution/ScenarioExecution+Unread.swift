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
            (handler.unreadHead(80), handler.unconsumedBytes, Self.decodedUnread(webSocket: session, http2: handler.layer))
        }), count > 0 || !decoded.items.isEmpty else { return }
        let when = statement == nil ? "when the scenario ended" : "when it was closed"
        var unread: [String] = []
        if !decoded.items.isEmpty {
            let shown = decoded.items.prefix(3).joined(separator: ", ")
            unread.append("\(decoded.items.count) \(decoded.noun)\(decoded.items.count == 1 ? "" : "s") decoded and not read (\(shown)\(decoded.items.count > 3 ? ", …" : ""))")
        }
        if count > 0 { unread.append("\(count) unread byte\(count == 1 ? "" : "s")") }
        let what = "\(connection.label) had \(unread.joined(separator: " and ")) \(when)" + (count > 0 ? ": " + ByteEscaper.preview(head, limit: 80, total: count) : "")
        if settings.unread == .note {
            runRecord.notes.append(what + " (no expect read them; `set unread fail` makes this a failure)")
            return
        }
        let location = statement?.location ?? scenario.statements.last?.location ?? SourceLocation(file: scenario.path, line: 1, column: 1)
        throw StepFailure(at: location, step: statement?.text ?? "end of scenario", reason: ConnectionFailure.unread(what), connection: connection.label)
    }

    /// What a connection's layer decoded that no expect took: WebSocket messages and control
    /// frames, or HTTP/2 frames (those the probe answered in the background too, marked so).
    static func decodedUnread(webSocket: WebSocketSession?, http2: HTTP2Session?) -> (noun: String, items: [String]) {
        if let webSocket { return ("WebSocket message", webSocket.undelivered.map(\.description)) }
        return ("HTTP/2 frame", http2?.undelivered.map(\.description) ?? [])
    }
}
