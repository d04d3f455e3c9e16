import Foundation
import ProbeHost
import Testing

/// A real server's configuration file, in a folder of its own, written for a free port.
enum ServerConfiguration {
    /// ngircd's, named irc.test, on 127.0.0.1 with PingTimeout and PongTimeout of 2 s.
    static func ngircd() throws -> (file: URL, port: Int) {
        try write("ngircd.conf") { port in """
            [Global]
            Name = irc.test
            Info = tcpprobe test
            Listen = 127.0.0.1
            Ports = \(port)
            [Limits]
            PingTimeout = 2
            PongTimeout = 2
            [Options]
            PAM = no
            Ident = no
            DNS = no

            """ }
    }

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
