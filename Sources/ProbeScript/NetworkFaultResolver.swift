/// Turns the faults written on a network (`n: delay 50ms`, `n: rate 1MiB/s`, `n: clear`), which
/// parse as a proxy's because the two share their words, into network faults once the file is
/// loaded: a `NAME:` prefix names a network when a `network NAME` statement is anywhere in the
/// scenario. A fault only a proxy has (`n: slice 1..3`) on a network, or a fault on a name no
/// `proxy` or `network` statement makes, is an error here, with its place, rather than at run time.
package struct NetworkFaultResolver {
    package static func resolve(_ statements: [Statement]) -> (statements: [Statement], diagnostics: [Diagnostic]) {
        var resolver = NetworkFaultResolver(networks: names(statements, made: { if case .network(let name, _) = $0 { name } else { nil } }),
                                            proxies: names(statements, made: { if case .proxy(let name, _, _) = $0 { name } else { nil } }))
        let resolved = resolver.map(statements)
        return (resolved, resolver.diagnostics)
    }

    private let networks: Set<String>
    private let proxies: Set<String>
    private var diagnostics: [Diagnostic] = []

    private init(networks: Set<String>, proxies: Set<String>) {
        self.networks = networks
        self.proxies = proxies
    }

    /// The names the statements `made` picks make, in blocks too.
    private static func names(_ statements: [Statement], made: (StatementKind) -> Name?) -> Set<String> {
        statements.reduce(into: []) { names, statement in
            if let name = made(statement.kind) { names.insert(name.text) }
            switch statement.kind {
            case .repeatBlock(_, let body, _), .parallel(_, let body), .nonStrict(let body, _): names.formUnion(Self.names(body, made: made))
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
                    statement = statement.with(kind: .networkFault(networkFault))
                } else {
                    var keyword = statement.location
                    keyword.column += statement.text.count - statement.step.count
                    diagnostics.append(Diagnostic(at: keyword, length: statement.keyword.count,
                                                  "a network's faults are \(NetworkFault.spellings); '\(statement.keyword)' is a proxy's"))
                }
            case .proxyFault where statement.connection.map({ !proxies.contains($0.text) }) ?? false:
                let name = statement.connection!.text
                diagnostics.append(Diagnostic(at: statement.location, length: name.count,
                                              "no proxy or network named '\(name)' in this scenario: make it first with `proxy \(name) FRONT to BACK` or `network \(name)`"))
            case .repeatBlock(let count, let body, let untilClosed):
                statement = statement.with(kind: .repeatBlock(count, body: map(body), untilClosed: untilClosed))
            case .parallel(let count, let body):
                statement = statement.with(kind: .parallel(count, body: map(body)))
            case .nonStrict(let body, let skip):
                statement = statement.with(kind: .nonStrict(body: map(body), skip: skip))
            default:
                break
            }
            return statement
        }
    }
}
