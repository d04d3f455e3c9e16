/// `network NAME [FAULT]...` and the faults only a network has (`n: loss 10% downstream`); a
/// network's `delay`, `rate` and `clear` steps parse as a proxy's and are read as its at run time.
extension Parser {
    mutating func parseNetwork() throws -> StatementKind {
        let name = try name("a network name")
        var faults: [NetworkFault] = []
        while !atStatementEnd {
            faults.append(try parseNetworkFault(try keyword(Grammar.NetworkFaultWord.self, after: faults.isEmpty ? "the network's name" : "a fault")))
        }
        return .network(name, faults: faults)
    }

    /// The fault that `keyword` began, with its optional direction.
    mutating func parseNetworkFault(_ keyword: Grammar.NetworkFaultWord) throws -> NetworkFault {
        let change: NetworkFault.Change
        switch keyword {
        case .loss:
            let share = try percent()
            change = .loss(share, burst: take("burst") ? try count("a number of packets") : nil)
        case .delay:
            let delay = try duration()
            change = .delay(delay, jitter: take("jitter") ? try duration() : nil)
        case .reorder:
            let share = try percent()
            change = .reorder(share, gap: take("gap") ? try duration() : nil)
        case .duplicate: change = .duplicate(try percent())
        case .rate: change = .rate(try argument("a rate", hint: Quantity.rateHint, Quantity.rate))
        case .partition: change = .partition
        case .heal: change = .heal
        case .clear: change = .clear
        }
        var direction: ProxyDirection?
        if let word = current.word, let named = ProxyDirection(rawValue: word) {
            advance()
            direction = named
        }
        return NetworkFault(change: change, direction: direction)
    }

    private mutating func percent() throws -> Argument<Double> {
        try argument("a share of the packets", hint: Quantity.percentHint, Quantity.percent)
    }
}
