import ArgumentParser
import Foundation
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
        guard let data = FileManager.default.contents(atPath: file) else {
            Terminal.printError("error: cannot read \(file)")
            throw ExitCode.invalidInput
        }
        let packets: [CapturedPacket]
        do {
            packets = try PcapFile.packets(in: [UInt8](data))
        } catch {
            Terminal.printError("error: \(file): \(error)")
            throw ExitCode.invalidInput
        }
        print(ConversationRenderer().render(packets.compactMap(PacketDecoder.segment), port: port))
    }
}
