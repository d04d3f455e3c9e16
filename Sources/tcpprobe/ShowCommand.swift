import ArgumentParser
import FoundationEssentials
import ProbeCapture
import ProbeReport

/// `tcpprobe show`: a pcap file as a readable conversation.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Render a pcap file as conversations: segments, lines, FIN, RST and zero windows."
    )

    @Argument(help: "A pcap file (as tcpprobe, tcpdump or Wireshark write them).")
    var file: String

    @Option(help: "Only connections with this port.")
    var port: Int?

    func run() throws {
        let segments: [TCPSegment]
        do {
            segments = try PcapFile.segments(atPath: file)
        } catch {
            Terminal.printError("error: \(file): \(error)")
            throw ExitCode.invalidInput
        }
        print(ConversationRenderer().render(segments, port: port))
    }
}
