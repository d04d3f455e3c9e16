import FoundationEssentials
import ProbeCapture
import ProbeHost

/// How a run captures the wire: `--capture`, `--interface`, `--pcap-dir`, `--keep-pcap`, `--require-capture`,
/// `--capture-buffer`, `--snaplen`.
public struct CaptureSettings: Sendable {
    public enum Keep: String, Sendable, CaseIterable {
        case always, failed, never
    }

    /// Capture every scenario, not only those with `assert wire` or `set capture on`.
    public var always: Bool
    public var interface: String
    /// Where pcap files go: a private folder (see `PrivateDirectory`).
    public var directory: String
    /// True when `directory` is the default, which is made private if it is not.
    public var directoryIsDefault: Bool
    public var keep: Keep
    /// Without capture privileges, fail with an environment error instead of skipping wire assertions.
    public var required: Bool
    /// The kernel ring's size in bytes; nil for the default (256 MiB, or 16 MiB under a short snap length).
    public var bufferSize: Int?
    /// How many bytes of each packet to keep (`--snaplen`): all of them by default; less keeps
    /// headers and lengths, so payload checks become inconclusive.
    public var snapLength: Int
    /// Opens a scenario's capture to the file at `path`, keeping `snapLength` bytes of each
    /// packet: a fake one in tests, libpcap on `interface` when nil.
    public var open: (@Sendable (_ path: String, _ snapLength: Int) throws -> any PacketCapture)?

    public init(always: Bool = false, interface: String = "lo", directory: String? = nil, keep: Keep = .failed, required: Bool = false,
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
