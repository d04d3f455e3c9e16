/// A loaded scenario: its statements with includes spliced in, and its header.
package struct Scenario: Sendable {
    package var path: String
    package var title: String
    package var tags: [String]
    package var statements: [Statement]
    /// Every file read to build it (the scenario and its includes), for quoting in diagnostics.
    package var sources: [SourceFile]

    package init(path: String, title: String, tags: [String], statements: [Statement], sources: [SourceFile]) {
        self.path = path
        self.title = title
        self.tags = tags
        self.statements = statements
        self.sources = sources
    }

    /// All statements, depth first, including those inside blocks.
    package var allStatements: [Statement] {
        var out: [Statement] = []
        visitStatements { out.append($0); return true }
        return out
    }

    /// Whether a statement, inside blocks too, is one `predicate` takes; without building
    /// `allStatements` (a run asks this of each scenario it starts: 0.8% of an h2spec run).
    package func containsStatement(where predicate: (Statement) -> Bool) -> Bool {
        !visitStatements { !predicate($0) }
    }

    /// Shows `visit` each statement, depth first, inside blocks too, until it says false;
    /// false when it did.
    @discardableResult
    private func visitStatements(_ visit: (Statement) -> Bool) -> Bool {
        func walk(_ statements: [Statement]) -> Bool {
            for statement in statements {
                guard visit(statement) else { return false }
                switch statement.kind {
                case .repeatBlock(_, let body, _), .parallel(_, let body), .nonStrict(let body, _): guard walk(body) else { return false }
                default: break
                }
            }
            return true
        }
        return walk(statements)
    }
}
