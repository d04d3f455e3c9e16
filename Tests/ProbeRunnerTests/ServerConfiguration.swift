import Foundation
import ProbeHost
import Testing

/// A real server's configuration file, in a folder of its own, written for a free port.
enum ServerConfiguration {
    /// Writes `text(port)` to `name` and returns the file and the port.
    static func write(_ name: String, _ text: (Int) -> String) throws -> (file: URL, port: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try #require(FreePort.pick())
        let file = folder.appendingPathComponent(name)
        try text(port).write(to: file, atomically: true, encoding: .utf8)
        return (file, port)
    }
}
