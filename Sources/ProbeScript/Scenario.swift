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
        func walk(_ statements: [Statement]) {
            for statement in statements {
                out.append(statement)
                switch statement.kind {
                case .repeatBlock(_, let body, _), .parallel(_, let body), .nonStrict(let body, _): walk(body)
                default: break
                }
            }
        }
        walk(statements)
        return out
    }
}
