import FoundationEssentials

/// Where a capture's TLS keys are kept, and reading them back.
extension TLSKeyMaterial {
    /// NAME.keys beside NAME.pcap (or beside FILE, any other name): where tcpprobe writes a kept
    /// capture's keys, and where `show` and `import` look for them.
    package static func path(besideCapture capture: String) -> String {
        (capture.hasSuffix(".pcap") ? String(capture.dropLast(5)) : capture) + ".keys"
    }

    package struct Unreadable: Error, CustomStringConvertible {
        package let path: String
        package var description: String { "cannot read the key log \(path)" }
    }

    /// The keys of `keyLog` when given, else of the file beside `capture` when there is one;
    /// nil when neither is there.
    package static func forCapture(_ capture: String, keyLog: String?) throws -> TLSKeyMaterial? {
        let beside = path(besideCapture: capture)
        guard let path = keyLog ?? (FileManager.default.fileExists(atPath: beside) ? beside : nil) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Unreadable(path: path) }
        return TLSKeyMaterial(lines: text.split(separator: "\n"))
    }
}
