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
        guard let (head, count, messages) = try? await connection.onLoop({ ($0.unreadHead(80), $0.unconsumedBytes, session?.undelivered ?? []) }),
              count > 0 || !messages.isEmpty else { return }
        let when = statement == nil ? "when the scenario ended" : "when it was closed"
        var unread: [String] = []
        if !messages.isEmpty {
            let shown = messages.prefix(3).map(\.description).joined(separator: ", ")
            unread.append("\(messages.count) WebSocket message\(messages.count == 1 ? "" : "s") decoded and not read (\(shown)\(messages.count > 3 ? ", …" : ""))")
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
}
