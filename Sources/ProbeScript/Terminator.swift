/// What ends a line: `crlf`, `lf`, `cr`, `nul`, or any string.
package enum Terminator: Sendable, Hashable, CustomStringConvertible {
    case crlf, lf, cr, nul
    case custom([UInt8])

    package static let names: [String] = ["crlf", "lf", "cr", "nul"]

    package init?(name: String) {
        switch name {
        case "crlf": self = .crlf
        case "lf": self = .lf
        case "cr": self = .cr
        case "nul": self = .nul
        default: return nil
        }
    }

    package var bytes: [UInt8] {
        switch self {
        case .crlf: return [13, 10]
        case .lf: return [10]
        case .cr: return [13]
        case .nul: return [0]
        case .custom(let bytes): return bytes
        }
    }

    package var description: String {
        switch self {
        case .crlf: return "crlf"
        case .lf: return "lf"
        case .cr: return "cr"
        case .nul: return "nul"
        case .custom(let bytes): return "\"" + ByteEscaper.escape(bytes) + "\""
        }
    }
}
