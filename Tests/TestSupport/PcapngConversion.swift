import Foundation
import Testing

/// A classic pcap rewritten as pcapng by tshark, as Wireshark users' files come.
public enum PcapngConversion {
    /// Writes `pcap` as pcapng to `pcapng` with `tshark -F pcapng`.
    public static func convert(_ pcap: URL, to pcapng: URL) throws {
        let tshark = Process()
        tshark.executableURL = URL(fileURLWithPath: try #require(Requirement.tshark.path))
        tshark.arguments = ["-r", pcap.path, "-F", "pcapng", "-w", pcapng.path]
        tshark.standardError = FileHandle.nullDevice
        try tshark.run()
        tshark.waitUntilExit()
    }
}
