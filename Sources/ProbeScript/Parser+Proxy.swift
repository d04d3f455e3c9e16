/// `proxy NAME FRONT to BACK` and the fault steps on a proxy (`p: delay 50ms downstream`).
extension Parser {
    /// One fault as a command line gives it (`tcpprobe proxy … --fault "delay 50ms"`): the
    /// step without its `NAME:`, from `source`'s only line.
    public static func proxyFault(_ source: SourceFile) -> Result<ProxyFault, Diagnostic> {
        var parser = Parser(source: source)
        do {
            let fault = try parser.parseProxyFault(try parser.keyword(Grammar.proxyFaults, after: "--fault"))
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
    mutating func parseProxyFault(_ keyword: String) throws -> ProxyFault {
        let change: ProxyFault.Change
        switch keyword {
        case "delay":
            let delay = try duration()
            change = .delay(delay, jitter: take("jitter") ? try duration() : nil)
        case "rate":
            change = .rate(try argument("a rate", hint: Quantity.rateHint, Quantity.rate))
        case "slice":
            let token = try word("a slice size range N..M")
            let bounds = token.word!.split(separator: ".", omittingEmptySubsequences: false)
            guard bounds.count == 3, bounds[1].isEmpty, let low = Int(bounds[0]), let high = Int(bounds[2]), low >= 1, low <= high else {
                throw failure("'\(token.word!)' is not a slice size range N..M (1 <= N <= M)", at: token, hint: "for example: slice 1..8")
            }
            let every = take("every") ? try duration() : nil
            change = .slice(min: Argument(low, text: String(bounds[0]), at: token.location),
                            max: Argument(high, text: String(bounds[2]), at: token.location), every: every)
        case "hold": change = .hold
        case "release": change = .release
        case "cut":
            if take("after") {
                let count = try self.count("a byte count")
                try self.keyword(["bytes", "byte"], after: "cut after N")
                change = .cutAfter(count)
            } else {
                change = .cut
            }
        case "reset": change = .reset
        default: change = .clear
        }
        var direction: ProxyDirection?
        if !atStatementEnd {
            direction = ProxyDirection(rawValue: try self.keyword(ProxyDirection.allCases.map(\.rawValue), after: "the \(keyword) fault"))
        }
        return ProxyFault(change: change, direction: direction)
    }
}
