/// Checks, in file order, that every `{name}` refers to a variable known at that point:
/// declared by `var`, set by an earlier regex group, given on the command line, or set by
/// the enclosing block (`{i}` in repeat, `{copy}` in parallel). A value given from outside that
/// names variables itself (`--var server="./my-server --port {port}"`) is checked where it is
/// used: each name it holds must be known there too, and no value may lead back to itself.
package struct VariableChecker {
    package static let repeatIndex = "i"
    package static let parallelCopy = "copy"

    private let given: [String: Template]
    private var diagnostics: [Diagnostic] = []
    /// Where each `var` was first declared.
    private var declared: [String: SourceLocation] = [:]

    package static func check(_ statements: [Statement], predefined: Set<String>, given: [String: Template] = [:]) -> [Diagnostic] {
        var checker = VariableChecker(given: given)
        var known = predefined
        checker.walk(statements, known: &known)
        return checker.diagnostics
    }

    private init(given: [String: Template]) {
        self.given = given
    }

    private mutating func walk(_ statements: [Statement], known: inout Set<String>) {
        for statement in statements {
            let own = statement.kind.ownVariables
            // A set made anew only where the statement has variables of its own (`on … reading`).
            let visible = own.isEmpty ? known : known.union(own)
            for template in statement.kind.templates {
                for (name, location) in template.variables {
                    check(name, at: location, visible: visible, known: known, through: [])
                }
            }
            checkNetwork(of: statement, known: known)
            if case .variable(let name, _) = statement.kind { checkRedeclaration(of: name, at: statement) }
            let defined = statement.kind.definedVariables
            if !defined.isEmpty { known.formUnion(defined) }
            switch statement.kind {
            case .repeatBlock(_, let body, _):
                // Variables a repeat body sets stay set after it.
                let outer = known.contains(Self.repeatIndex)
                known.insert(Self.repeatIndex)
                walk(body, known: &known)
                if !outer { known.remove(Self.repeatIndex) }
            case .parallel(_, let body):
                // Each copy has its own variables: nothing leaks out of a parallel block.
                var inner = known
                inner.insert(Self.parallelCopy)
                walk(body, known: &inner)
            case .nonStrict(let body, nil):
                // A step not met ends the block early: what it would have set stays unknown after it.
                var inner = known
                walk(body, known: &inner)
            case .nonStrict(let body, _?):
                // A step not met in a `skip … unless` block ends the scenario: after it, the block ran whole.
                walk(body, known: &known)
            default:
                break
            }
        }
    }

    /// A second `var` of one name (an imported scenario's `var port = "22199"` after an included
    /// `var port = free-port`) replaces the first from there on: said as a warning.
    private mutating func checkRedeclaration(of name: Name, at statement: Statement) {
        guard let first = declared[name.text] else {
            declared[name.text] = statement.location
            return
        }
        guard first != statement.location else { return }
        diagnostics.append(Diagnostic(.warning, at: statement.location, length: statement.text.count,
                                      "'\(name.text)' is declared again: from here on this value replaces the one declared at \(first)",
                                      hint: "remove one of the two, or give the second another name"))
    }

    /// A network a step names (`spawn … in n`, `n: loss 5%`) must be made before it: `network n`
    /// is what sets `{n.host}`.
    private mutating func checkNetwork(of statement: Statement, known: Set<String>) {
        let named: Name?
        switch statement.kind {
        case .spawn(let spawn): named = spawn.network
        case .networkFault: named = statement.connection
        default: named = nil
        }
        guard let named, !known.contains("\(named.text).host") else { return }
        diagnostics.append(Diagnostic(at: named.location, length: named.text.count, "no network named '\(named.text)' is made before this step",
                                      hint: "make it first: network \(named.text)"))
    }

    /// Checks one use of `name` at `location`; `chain` holds the given values it was reached
    /// through, outermost first.
    private mutating func check(_ name: String, at location: SourceLocation, visible: Set<String>, known: Set<String>, through chain: [String]) {
        guard visible.contains(name) else {
            let inValue = chain.last.map { " in the value given for '\($0)'" } ?? ""
            let hint = Suggestion.closest(to: name, in: known.sorted()).map { "did you mean '{\($0)}'?" }
                ?? "declare it with 'var \(name) = ...' or pass --var \(name)=VALUE"
            diagnostics.append(Diagnostic(at: location, length: (chain.first ?? name).count, "unknown variable '\(name)'\(inValue)", hint: hint))
            return
        }
        guard let template = given[name] else { return }
        if chain.contains(name) {
            let cycle = (chain + [name]).map { "{\($0)}" }.joined(separator: " -> ")
            diagnostics.append(Diagnostic(at: location, length: chain[0].count, "the given values name each other in a cycle: \(cycle)",
                                          hint: "write one of them out in full"))
            return
        }
        for (inner, _) in template.variables {
            check(inner, at: location, visible: visible, known: known, through: chain + [name])
        }
    }
}
