/// Pairs each `assert copies` and `assert latency` with the `parallel` block it judges: the last
/// one that ran before it, in its own block or one around it (a copy judges only the blocks
/// inside its own body). An assert with no block before it is an error before anything runs, and
/// so is a `skip` inside a `parallel` block: it ends the scenario, which a copy cannot.
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
        _ = checker.walk(statements, after: nil, inCopy: false)
        return checker.diagnostics
    }

    package static func pairing(_ statements: [Statement]) -> Pairing {
        var checker = ParallelAssertionChecker()
        _ = checker.walk(statements, after: nil, inCopy: false)
        return checker.pairing
    }

    private var diagnostics: [Diagnostic] = []
    private var pairing = Pairing()

    /// Walks `statements` with `last` the block before them (`inCopy` inside a `parallel`
    /// block); returns the last block after them.
    private mutating func walk(_ statements: [Statement], after last: Statement?, inCopy: Bool) -> Statement? {
        var last = last
        for statement in statements {
            if inCopy, statement.isSkip {
                diagnostics.append(Diagnostic(at: statement.location, length: statement.text.count,
                                              "'skip' ends the scenario, and a copy of a parallel block cannot",
                                              hint: "check the precondition before the block"))
            }
            switch statement.kind {
            case .parallel(_, let body):
                _ = walk(body, after: nil, inCopy: true)
                last = statement
            case .repeatBlock(_, let body, _), .nonStrict(let body, _):
                last = walk(body, after: last, inCopy: inCopy)
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

extension Statement {
    /// `skip "REASON" unless …`, either form.
    fileprivate var isSkip: Bool {
        switch kind {
        case .nonStrict(_, _?), .skipUnlessDefined: true
        default: false
        }
    }
}
