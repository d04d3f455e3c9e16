import Foundation
import TestSupport
import Testing

/// tshark, to read a pcap as Wireshark does and compare with tcpprobe's own reading.
enum Tshark {
    /// tshark's standard output for `arguments`, without its trailing newline.
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Requirement.tshark.path))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.trimmingCharacters(in: .newlines)
    }
}
