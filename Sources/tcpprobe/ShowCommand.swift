import ArgumentParser
import FoundationEssentials
import ProbeCapture
import ProbeReport

/// `tcpprobe show`: a pcap file as a readable conversation.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Render a pcap file as conversations: segments, lines, FIN, RST and zero windows; TLS records, decrypted with a key log."
    )

    @Argument(help: "A pcap or pcapng file (as tcpprobe, tcpdump, tshark or Wireshark write them).")
    var file: String

    @Option(help: "Only connections with this port.")
    var port: Int?

    @Option(help: "An NSS key log (SSLKEYLOGFILE) to decrypt TLS with (default: FILE.keys beside FILE.pcap, when it is there).")
    var keylog: String?

    func run() throws {
        let segments: [TCPSegment]
        do {
            segments = try PcapFile.segments(atPath: file)
        } catch {
            Terminal.printError("error: \(file): \(error)")
            throw ExitCode.invalidInput
        }
        let keys: TLSKeyMaterial?
        do {
            keys = try TLSKeyMaterial.forCapture(file, keyLog: keylog)
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        print(ConversationRenderer(keys: keys).render(segments, port: port))
    }
}
