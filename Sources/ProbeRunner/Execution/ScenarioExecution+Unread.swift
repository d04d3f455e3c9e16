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
        guard let (head, count) = try? await connection.onLoop({ ($0.unreadHead(80), $0.unconsumedBytes) }), count > 0 else { return }
        let when = statement == nil ? "when the scenario ended" : "when it was closed"
        let what = "\(connection.label) had \(count) unread byte\(count == 1 ? "" : "s") \(when): "
            + ByteDiff.preview(head, limit: 80, total: count)
        if settings.unread == .note {
            runRecord.notes.append(what + " (no expect read them; `set unread fail` makes this a failure)")
            return
        }
        let location = statement?.location ?? scenario.statements.last?.location ?? SourceLocation(file: scenario.path, line: 1, column: 1)
        throw StepFailure(at: location, step: statement?.text ?? "end of scenario", message: what + " (set unread fail)", connection: connection.label)
    }
}
