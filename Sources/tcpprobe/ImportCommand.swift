import ArgumentParser
import FoundationEssentials
import ProbeCapture
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

extension Role: ExpressibleByArgument {}

/// `tcpprobe import FILE`: one captured conversation as a scenario that replays it.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a captured conversation (pcap or pcapng) as a scenario that replays it."
    )

    @ArgumentParser.Argument(help: "A pcap or pcapng file.")
    var file: String

    @Option(help: "Only connections with this port.")
    var port: Int?

    @Option(help: "Which connection, when the capture holds several (as listed, from 1).")
    var connection: Int?

    @Option(help: "An NSS key log to decrypt TLS with (default: FILE.keys beside FILE.pcap, when it is there).")
    var keylog: String?

    @Option(name: .customLong("as"), help: "The side the probe plays: client (connect) or server (listen and accept).")
    var role: Role = .client

    @Option(name: .shortAndLong, help: "Write the scenario here instead of to standard output.")
    var output: String?

    @Option(help: ArgumentHelp("Keep the probe's pauses longer than this as sleep steps (e.g. 100ms).", valueName: "DURATION"))
    var keepPauses: String?

    @Option(name: .customLong("mask"), help: ArgumentHelp("Expect what this regex matches (a date, an id) as a regex group, not as captured; repeat for more.", valueName: "REGEX"))
    var masks: [String] = []

    func validate() throws {
        if let keepPauses, Quantity.duration(keepPauses) == nil { throw ValidationError("--keep-pauses: '\(keepPauses)' is not a duration (\(Quantity.durationHint))") }
        for mask in masks where (try? Regex(mask)) == nil { throw ValidationError("--mask: '\(mask)' is not a regex") }
    }

    func run() throws {
        let segments: [TCPSegment]
        do { segments = try PcapFile.segments(atPath: file) } catch { fail("\(file): \(error)") }
        let connections = ConversationRenderer.group(segments).filter { key, _ in port.map { key.contains($0) } ?? true }.map(\.segments)
        guard !connections.isEmpty else { fail("\(file): no TCP connection" + (port.map { " on port \($0)" } ?? "") + " in the capture") }
        let chosen: [TCPSegment]
        if let connection {
            guard (1...connections.count).contains(connection) else { fail("\(file): there is no connection \(connection); \(Self.list(connections))") }
            chosen = connections[connection - 1]
        } else {
            guard connections.count == 1 else { fail("\(file) holds \(connections.count) connections; choose one with --connection K (or --port N):\n\(Self.list(connections))") }
            chosen = connections[0]
        }
        let keys: TLSKeyMaterial?
        do { keys = try TLSKeyMaterial.forCapture(file, keyLog: keylog) } catch { fail("\(error)") }
        let conversation: CapturedConversation
        do { conversation = try CapturedConversation(segments: chosen, keys: keys) } catch { fail("\(file): \(error)") }
        var writer = ScenarioWriter(source: (file.split(separator: "/").last.map(String.init) ?? file) + (connections.count > 1 ? ", connection \(connection ?? 1)" : ""))
        writer.role = role
        writer.masks = masks
        writer.keepPauses = keepPauses.flatMap(Quantity.duration).map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        let scenario = writer.write(conversation)
        if let output {
            do { try Data(scenario.utf8).write(to: URL(fileURLWithPath: output)) } catch { fail("cannot write \(output): \(error)") }
        } else {
            print(scenario, terminator: "")
        }
    }

    /// "  1: 127.0.0.1:40000 → 127.0.0.1:7000, 9 segments", a line each.
    private static func list(_ connections: [[TCPSegment]]) -> String {
        connections.enumerated().map { index, segments in
            let first = segments.first { $0.flags.contains(.syn) && !$0.flags.contains(.ack) } ?? segments[0]
            let bytes = segments.reduce(0) { $0 + $1.length }
            return "  \(index + 1): \(Address(host: first.sourceAddress, port: first.sourcePort)) → \(Address(host: first.destinationAddress, port: first.destinationPort)), "
                + "\(segments.count) segments, \(bytes) bytes"
        }.joined(separator: "\n")
    }

    private func fail(_ message: String) -> Never {
        Terminal.printError("error: \(message)")
        Glibc.exit(ExitCode.invalidInput.rawValue)
    }
}
