import Foundation

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
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
