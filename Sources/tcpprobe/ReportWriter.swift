import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ProbeReport

/// Writes report files under a temporary name and renames them into place, so an interrupted
/// run never leaves a truncated report behind.
enum ReportWriter {
    struct Target {
        var format: ReportFormat
        var path: String
    }

    /// Parses `FORMAT=FILE`.
    static func target(_ text: String) -> Target? {
        guard let equals = text.firstIndex(of: "="), let format = ReportFormat(rawValue: String(text[..<equals])) else { return nil }
        let path = String(text[text.index(after: equals)...])
        return path.isEmpty ? nil : Target(format: format, path: path)
    }

    struct RenameError: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var description: String { "cannot put the report in place at \(path): \(String(cString: strerror(code)))" }
    }

    static func write(_ report: RunReport, to targets: [Target]) throws {
        for target in targets {
            let temporary = target.path + ".tmp-\(getpid())"
            let directory = target.path.lastIndex(of: "/").map { String(target.path[..<$0]) } ?? ""
            if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            try Data(target.format.render(report).utf8).write(to: URL(filePath: temporary))
            guard rename(temporary, target.path) == 0 else {
                let code = errno
                try? FileManager.default.removeItem(atPath: temporary)
                throw RenameError(path: target.path, code: code)
            }
        }
    }
}
