/// Why a scenario named on the command line cannot be loaded.
package enum CatalogError: Error, CustomStringConvertible {
    case missing(String)
    case unreadable(String, reason: String)
    case notUTF8(String)

    package var description: String {
        switch self {
        case .missing(let path): return "no such file or directory: \(path)"
        case .unreadable(let path, let reason): return "\(reason.prefix(1).lowercased() + reason.dropFirst()): \(path)"
        case .notUTF8(let path): return "not UTF-8 text: \(path)"
        }
    }
}
