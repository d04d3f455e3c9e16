/// Finds, before anything runs, the sends that could only fail or be ignored at run time: a
/// second `split sweep` (only one is swept per scenario), and a `split at` offset past the end
/// of a payload whose length is known from the file (a literal, or a literal line with the
/// terminator set above it, or a literal message with the framing set above it).
public struct SendChecker {
    public static func check(_ statements: [Statement]) -> [Diagnostic] {
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
            case .repeatBlock(_, let body, _), .parallel(_, let body):
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

    /// The payload's length when the file alone says it.
    private func literalLength(_ data: SendStep.Data) -> Int? {
        switch data {
        case .bytes(let template): return template.literalBytes?.count
        case .line(let template): return template.literalBytes.map { $0.count + terminator.bytes.count }
        case .message(let template):
            switch framing {
            case .lines?: return template.literalBytes.map { $0.count + terminator.bytes.count }
            case .length(let header)?: return template.literalBytes.map { $0.count + (header.encode($0.count)?.count ?? header.longest) }
            case nil: return nil
            }
        case .file, .random, .webSocket: return nil
        }
    }
}
