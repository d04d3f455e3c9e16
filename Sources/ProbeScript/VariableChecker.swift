/// Checks, in file order, that every `{name}` refers to a variable known at that point:
/// declared by `var`, set by an earlier regex group, given on the command line, or set by
/// the enclosing block (`{i}` in repeat, `{copy}` in parallel).
public struct VariableChecker {
    public static let repeatIndex = "i"
    public static let parallelCopy = "copy"

    public static func check(_ statements: [Statement], predefined: Set<String>) -> [Diagnostic] {
        var known = predefined
        var diagnostics: [Diagnostic] = []
        walk(statements, known: &known, diagnostics: &diagnostics)
        return diagnostics
    }

    private static func walk(_ statements: [Statement], known: inout Set<String>, diagnostics: inout [Diagnostic]) {
        for statement in statements {
            let visible = known.union(statement.kind.ownVariables)
            for template in statement.kind.templates {
                for (name, location) in template.variables where !visible.contains(name) {
                    let hint = Suggestion.closest(to: name, in: known.sorted()).map { "did you mean '{\($0)}'?" }
                        ?? "declare it with 'var \(name) = ...' or pass --var \(name)=VALUE"
                    diagnostics.append(Diagnostic(at: location, length: name.count, "unknown variable '\(name)'", hint: hint))
                }
            }
            known.formUnion(statement.kind.definedVariables)
            switch statement.kind {
            case .repeatBlock(_, let body, _):
                // Variables a repeat body sets stay set after it.
                let outer = known.contains(repeatIndex)
                known.insert(repeatIndex)
                walk(body, known: &known, diagnostics: &diagnostics)
                if !outer { known.remove(repeatIndex) }
            case .parallel(_, let body):
                // Each copy has its own variables: nothing leaks out of a parallel block.
                var inner = known
                inner.insert(parallelCopy)
                walk(body, known: &inner, diagnostics: &diagnostics)
            default:
                break
            }
        }
    }
}
