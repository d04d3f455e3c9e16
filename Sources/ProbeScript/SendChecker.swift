/// Finds, before anything runs, the sends that could only fail or be ignored at run time: a
/// second `split sweep` (only one is swept per scenario), and a `split at` offset past the end
/// of a payload whose length is known from the file (a literal, or a literal line with the
/// terminator set above it, or a literal message with the framing set above it); and a
/// message's `head` that the framing set above it has no room for.
package struct SendChecker {
    package static func check(_ statements: [Statement]) -> [Diagnostic] {
        var checker = SendChecker()
        checker.walk(statements)
        return checker.diagnostics
    }

    private var diagnostics: [Diagnostic] = []
    private var terminator = Terminator.crlf
    /// nil while a `{variable}` width leaves it unknown until the run.
    private var framing: MessageFraming? = .lines
    private var firstSweep: Statement?

    private mutating func walk(_ statements: [Statement]) {
        for statement in statements {
            switch statement.kind {
            case .set(.terminator(let value)):
                terminator = value
            case .set(.framing(let value)):
                framing = value.literal
            case .send(let send):
                check(send, statement)
                if case .message(_, let head?) = send.data { check(head: head, statement) }
            case .expect(.message(_, let head?), _), .expect(.messageOfLength(_, let head?), _):
                check(head: head, statement)
            case .repeatBlock(_, let body, _), .parallel(_, let body), .nonStrict(let body, _):
                walk(body)
            default:
                break
            }
        }
    }

    private mutating func check(_ send: SendStep, _ statement: Statement) {
        if send.splitSweep {
            if let first = firstSweep {
                diagnostics.append(Diagnostic(at: statement.location, length: statement.text.count,
                                              "a second 'split sweep': a scenario sweeps one message",
                                              hint: "the first is at line \(first.location.line); split this one with 'split at N' instead"))
            } else {
                firstSweep = statement
            }
        }
        guard let length = literalLength(send.data) else { return }
        for offset in send.splitOffsets {
            guard let value = offset.literal, value >= length else { continue }
            diagnostics.append(Diagnostic(at: offset.location, length: offset.text.count,
                                          "split offset \(value) is not inside the \(length) bytes being sent",
                                          hint: length > 1 ? "offsets run from 1 to \(length - 1)" : "one byte cannot be split"))
        }
    }

    /// A message's head must be as long as the head of the framing above it (when the file
    /// alone says both), and lines have none.
    private mutating func check(head: Template, _ statement: Statement) {
        guard let framing, head.variables.isEmpty else { return }
        let problem: String
        switch framing {
        case .lines: problem = "a message has a head only under set framing length|varint … after N"
        case .length(let header):
            let count = head.pattern({ _ in nil }, bytes: [:]).count
            guard count != header.after else { return }
            problem = "the head is \(count) bytes, and \(header) takes \(header.after)"
        }
        diagnostics.append(Diagnostic(at: statement.location, length: statement.text.count, problem, hint: "set framing length 4 after 1 gives a message a 1-byte head"))
    }

    /// The payload's length when the file alone says it.
    private func literalLength(_ data: SendStep.Data) -> Int? {
        switch data {
        case .bytes(let template): return template.literalCount
        case .line(let template): return template.literalCount.map { $0 + terminator.bytes.count }
        case .message(let template, _):
            switch framing {
            case .lines?: return template.literalCount.map { $0 + terminator.bytes.count }
            case .length(let header)?: return template.literalCount.map { $0 + header.size(announcing: $0) }
            case nil: return nil
            }
        case .file, .random, .webSocket, .http2: return nil
        }
    }
}
