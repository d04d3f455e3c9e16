/// `proxy NAME FRONT to BACK` and the fault steps on a proxy (`p: delay 50ms downstream`).
extension Parser {
    /// One fault as a command line gives it (`tcpprobe proxy … --fault "delay 50ms"`): the
    /// step without its `NAME:`, from `source`'s only line.
    package static func proxyFault(_ source: SourceFile) -> Result<ProxyFault, Diagnostic> {
        var parser = Parser(source: source)
        do {
            let fault = try parser.parseProxyFault(try parser.keyword(Grammar.ProxyFaultWord.self, after: "--fault"))
            if !parser.atStatementEnd { throw parser.failure("expected the end of the fault, found \(parser.current.display)", at: parser.current) }
            return .success(fault)
        } catch {
            return .failure((error as! Failure).diagnostic)
        }
    }

    mutating func parseProxy() throws -> StatementKind {
        let name = try name("a proxy name")
        let front = try address()
        try keyword(["to"], after: "the front address")
        return .proxy(name, front: front, back: try address())
    }

    /// The fault step that `keyword` began, with its optional direction last.
    mutating func parseProxyFault(_ keyword: Grammar.ProxyFaultWord) throws -> ProxyFault {
        let change: ProxyFault.Change
        switch keyword {
        case .delay:
            let delay = try duration()
            change = .delay(delay, jitter: take("jitter") ? try duration() : nil)
        case .rate:
            change = .rate(try argument("a rate", hint: Quantity.rateHint, Quantity.rate))
        case .slice:
            let token = try word("a slice size range N..M")
            let text = token.word!
            let bad = failure("'\(text)' is not a slice size range N..M (1 <= N <= M)", at: token, hint: "for example: slice 1..8")
            guard let dots = text.firstRange(of: "..") else { throw bad }
            // Each bound is a whole number or a `{variable}`, resolved when the step runs.
            func bound(_ part: Substring) throws -> Argument<Int> {
                let template = Template.word(String(part), at: token.location)
                if !part.isEmpty, !template.variables.isEmpty { return Argument(interpolated: template, text: String(part), at: token.location) }
                guard let value = Int(part), value >= 1 else { throw bad }
                return Argument(value, text: String(part), at: token.location)
            }
            let low = try bound(text[..<dots.lowerBound]), high = try bound(text[dots.upperBound...])
            if let min = low.literal, let max = high.literal, min > max { throw bad }
            let every = take("every") ? try duration() : nil
            change = .slice(min: low, max: high, every: every)
        case .hold: change = .hold
        case .release: change = .release
        case .cut:
            if take("after") {
                let count = try self.count("a byte count")
                try self.keyword(["bytes", "byte"], after: "cut after N")
                change = .cutAfter(count)
            } else {
                change = .cut
            }
        case .reset: change = .reset
        case .clear: change = .clear
        }
        var direction: ProxyDirection?
        if !atStatementEnd {
            direction = ProxyDirection(rawValue: try self.keyword(ProxyDirection.allCases.map(\.rawValue), after: "the \(keyword.rawValue) fault"))
        }
        return ProxyFault(change: change, direction: direction)
    }
}
