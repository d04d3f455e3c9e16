import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ProbeHost

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

    /// Writes `text` to stderr unbuffered, retrying short writes; a stderr that takes no more
    /// loses the rest, there being nowhere left to say so.
    static func writeError(_ text: String) {
        try? Syscall.writeAll(text.utf8, to: STDERR_FILENO)
    }
}
