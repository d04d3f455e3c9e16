/// Pairs each `assert copies` and `assert latency` with the `parallel` block it judges: the last
/// one that ran before it, in its own block or one around it (a copy judges only the blocks
/// inside its own body). An assert with no block before it is an error before anything runs.
package struct ParallelAssertionChecker {
    /// The blocks the asserts judge.
    package struct Pairing: Sendable {
        /// The `parallel` block each assert judges, by the assert's location.
        package var blockOfAssert: [SourceLocation: SourceLocation] = [:]
        /// The blocks an `assert copies` judges: their copies' failures are its to judge, and do
        /// not fail the block itself.
        package var judgedOnCopies: Set<SourceLocation> = []
    }

    package static func check(_ statements: [Statement]) -> [Diagnostic] {
        var checker = ParallelAssertionChecker()
        _ = checker.walk(statements, after: nil)
        return checker.diagnostics
    }

    package static func pairing(_ statements: [Statement]) -> Pairing {
        var checker = ParallelAssertionChecker()
        _ = checker.walk(statements, after: nil)
        return checker.pairing
    }

    private var diagnostics: [Diagnostic] = []
    private var pairing = Pairing()

    /// Walks `statements` with `last` the block before them; returns the last block after them.
    private mutating func walk(_ statements: [Statement], after last: Statement?) -> Statement? {
        var last = last
        for statement in statements {
            switch statement.kind {
            case .parallel(_, let body):
                _ = walk(body, after: nil)
                last = statement
            case .repeatBlock(_, let body, _), .nonStrict(let body, _):
                last = walk(body, after: last)
            case .assertParallel(let assertion):
                guard let block = last else {
                    diagnostics.append(Diagnostic(at: statement.location, length: statement.text.count,
                                                  "'\(statement.text)' judges the parallel block before it, and none comes before it",
                                                  hint: "put it after a block: parallel 100 { … }"))
                    continue
                }
                pairing.blockOfAssert[statement.location] = block.location
                if case .copies = assertion { pairing.judgedOnCopies.insert(block.location) }
            default:
                break
            }
        }
        return last
    }
}
