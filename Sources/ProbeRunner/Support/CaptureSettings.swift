import FoundationEssentials
import ProbeCapture
import ProbeHost

/// How a run captures the wire: `--capture`, `--interface`, `--pcap-dir`, `--keep-pcap`, `--require-capture`,
/// `--capture-buffer`, `--snaplen`.
package struct CaptureSettings: Sendable {
    package enum Keep: String, Sendable, CaseIterable {
        case always, failed, never
    }

    /// Capture every scenario, not only those with `assert wire` or `set capture on`.
    package var always: Bool
    package var interface: String
    /// Where pcap files go: a private folder (see `PrivateDirectory`).
    package var directory: String
    /// True when `directory` is the default, which is made private if it is not.
    package var directoryIsDefault: Bool
    package var keep: Keep
    /// Without capture privileges, fail with an environment error instead of skipping wire assertions.
    package var required: Bool
    /// The kernel ring's size in bytes; nil for the default (256 MiB, or 16 MiB under a short snap length).
    package var bufferSize: Int?
    /// How many bytes of each packet to keep (`--snaplen`): all of them by default; less keeps
    /// headers and lengths, so payload checks become inconclusive.
    package var snapLength: Int
    /// Opens a scenario's capture to the file at `path`, keeping `snapLength` bytes of each
    /// packet: a fake one in tests, libpcap on `interface` when nil.
    package var open: (@Sendable (_ path: String, _ snapLength: Int) throws -> any PacketCapture)?

    package init(always: Bool = false, interface: String = "lo", directory: String? = nil, keep: Keep = .failed, required: Bool = false,
                bufferSize: Int? = nil, snapLength: Int = PcapCapture.fullSnapLength) {
        self.bufferSize = bufferSize
        self.snapLength = snapLength
        self.always = always
        self.interface = interface
        self.directory = directory ?? PrivateDirectory.defaultPath(named: "tcpprobe", environment: ProcessInfo.processInfo.environment)
        self.directoryIsDefault = directory == nil
        self.keep = keep
        self.required = required
    }
}
