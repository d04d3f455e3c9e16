import ProbeFraming
import ProbeResults
import ProbeScript

/// What expects and background rules read, made from their statements with the context's
/// variables: written once for the expects of connections, proxies, subjects' streams, WebSocket
/// messages, wire checks and `on` rules.
extension StepContext {
    /// The expectation with its variables filled in and its regex compiled.
    func rule(for expectation: Expectation, _ statement: Statement) throws -> ExpectationMatcher.Rule {
        switch expectation {
        // The usual expect, taken apart in one pattern: its line match is not copied out whole.
        case .line(.exact(let template)): return .line(.exact(pattern(template)))
        case .line(let match): return .line(try lineRule(match, statement))
        case .message(let match, let head): return .line(try lineRule(match, statement), head: try headPattern(head, statement))
        case .messageOfLength(let count, let head):
            return .line(.length(try resolve(count, "a size", Quantity.size)), head: try headPattern(head, statement))
        case .linesUnordered(let lines): return .linesUnordered(remaining: lines.map(render))
        case .exactBytes(let template): return .exactBytes(pattern(template))
        case .byteCount(let count, let equals):
            return .byteCount(try resolve(count, "a size", Quantity.size), equals: equals.map(pattern))
        case .until(let delimiter, let max):
            let bytes = render(delimiter)
            // The parser refuses a literal empty delimiter; one made of variables is checked here.
            if bytes.isEmpty { throw StepFailure(statement, FramingFailure.emptyDelimiter) }
            return .until(bytes, max: try resolve(max, "a size", Quantity.size))
        case .untilMatch(let literal, let max):
            return .untilMatch(try compile(literal, statement), max: try resolve(max, "a size", Quantity.size))
        case .eventually(let match, let max, let unless):
            return .eventually(try lineRule(match, statement), max: try max.map { try resolve($0, "a size", Quantity.size) } ?? ExpectationMatcher.eventuallyMax,
                               unless: try unless.map { try compile($0, statement) }, skipped: SkippedLines())
        case .any: return .any
        case .eof: return .eof
        case .reset: return .reset
        case .close: return .close
        case .nothing: return .nothing
        case .webSocket, .http2: preconditionFailure("a WebSocket or HTTP/2 expectation is resolved against its connection")
        }
    }

    func lineRule(_ match: LineMatch, _ statement: Statement) throws -> ExpectationMatcher.LineRule {
        switch match {
        case .exact(let template): return .exact(pattern(template))
        case .contains(let template): return .contains(render(template))
        case .any: return .any
        case .regex(let literal): return .regex(try compile(literal, statement))
        }
    }

    func readRule(_ expectation: Expectation, _ statement: Statement) throws -> (ExpectationMatcher.LineRule, BytePattern?, any Framing) {
        guard case .line(let match, let head) = try rule(for: expectation, statement) else {
            preconditionFailure("the parser gives a rule only line and message forms")
        }
        return (match, head, expectation.readsMessages ? settings.framing : settings.lineFraming)
    }

    /// An expected message's head, checked against the framing as a send's is.
    private func headPattern(_ head: Template?, _ statement: Statement) throws -> BytePattern? {
        guard let head else { return nil }
        guard case .length(let header) = settings.messageFraming else { throw StepFailure(statement, FramingFailure.headUnderLines) }
        let expected = pattern(head)
        _ = try headBytesChecked(expected.bytes, header, statement)
        return expected
    }

    /// `head` when it is as long as `header`'s head; else the step fails, saying so.
    func headBytesChecked(_ head: [UInt8], _ header: LengthHeader, _ statement: Statement) throws -> [UInt8] {
        guard head.count == header.after else { throw StepFailure(statement, FramingFailure.wrongHeadSize(got: head.count, header: "\(header)", takes: header.after)) }
        return head
    }
}
