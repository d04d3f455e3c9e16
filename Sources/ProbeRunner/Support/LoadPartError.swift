/// Why `--part auto` has no part: a usage error (exit 2).
package enum LoadPartError: Error, Equatable, CustomStringConvertible {
    case missing(String, String)
    case notANumber(String, String, String)

    package var description: String {
        switch self {
        case .missing(let name, let what): "--part auto needs \(name) (\(what)) in the environment"
        case .notANumber(let name, let value, let range): "--part auto: \(name) is '\(value)', not \(range)"
        }
    }
}
