/// Turns the faults written on a network (`n: delay 50ms`, `n: rate 1MiB/s`, `n: clear`), which
/// parse as a proxy's because the two share their words, into network faults once the file is
/// loaded: a `NAME:` prefix names a network when a `network NAME` statement is anywhere in the
/// scenario. A fault only a proxy has (`n: slice 1..3`) on a network is an error here, with its
/// place, rather than at run time.
package struct NetworkFaultResolver {
    package static func resolve(_ statements: [Statement]) -> (statements: [Statement], diagnostics: [Diagnostic]) {
        var resolver = NetworkFaultResolver(networks: networkNames(statements))
        guard !resolver.networks.isEmpty else { return (statements, []) }
        let resolved = resolver.map(statements)
        return (resolved, resolver.diagnostics)
    }

    private let networks: Set<String>
    private var diagnostics: [Diagnostic] = []

    private init(networks: Set<String>) {
        self.networks = networks
    }

    private static func networkNames(_ statements: [Statement]) -> Set<String> {
        statements.reduce(into: []) { names, statement in
            switch statement.kind {
            case .network(let name, _): names.insert(name.text)
            case .repeatBlock(_, let body, _), .parallel(_, let body), .nonStrict(let body): names.formUnion(networkNames(body))
            default: break
            }
        }
    }

    private mutating func map(_ statements: [Statement]) -> [Statement] {
        statements.map { statement in
            var statement = statement
            switch statement.kind {
            case .proxyFault(let fault) where statement.connection.map({ networks.contains($0.text) }) ?? false:
                if let networkFault = NetworkFault(fault) {
                    statement.kind = .networkFault(networkFault)
                } else {
                    var keyword = statement.location
                    keyword.column += statement.text.count - statement.step.count
                    diagnostics.append(Diagnostic(at: keyword, length: statement.keyword.count,
                                                  "a network's faults are \(NetworkFault.spellings); '\(statement.keyword)' is a proxy's"))
                }
            case .repeatBlock(let count, let body, let untilClosed):
                statement.kind = .repeatBlock(count, body: map(body), untilClosed: untilClosed)
            case .parallel(let count, let body):
                statement.kind = .parallel(count, body: map(body))
            case .nonStrict(let body):
                statement.kind = .nonStrict(body: map(body))
            default:
                break
            }
            return statement
        }
    }
}
