import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Facts about the output streams: whether to colour, and writing to stderr.
enum Terminal {
    static func useColour(_ choice: ColourChoice, fileDescriptor: Int32 = STDOUT_FILENO) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColour = ProcessInfo.processInfo.environment["NO_COLOR"], !noColour.isEmpty { return false }
            if ProcessInfo.processInfo.environment["TERM"] == "dumb" { return false }
            return isatty(fileDescriptor) == 1
        }
    }

    static func printError(_ text: String) {
        writeError(text + "\n")
    }

    /// Writes `text` to stderr unbuffered, retrying short writes.
    static func writeError(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if count > 0 { written += count } else if count < 0, errno == EINTR { continue } else { return }
        }
    }
}
