import ProbeScript

/// Gives an argument its value: a literal as written, an interpolated one once its variables
/// are filled in (a scenario's), or literals only (a command line's).
protocol ArgumentResolver {
    func resolve<Value>(_ argument: Argument<Value>, _ what: String, _ parse: (String) -> Value?) throws -> Value
}

/// Arguments that must be literal, as on a command line where there are no variables.
struct LiteralArguments: ArgumentResolver {
    struct NotLiteral: Error, CustomStringConvertible {
        let text: String
        var description: String { "'\(text)' names a variable, and there are none here" }
    }

    func resolve<Value>(_ argument: Argument<Value>, _ what: String, _ parse: (String) -> Value?) throws -> Value {
        guard let value = argument.literal else { throw NotLiteral(text: argument.text) }
        return value
    }
}
