/// libpcap's counters at the time they were read.
package struct CaptureStats: Sendable, Equatable {
    /// Packets the kernel handed to the capture: those its filter kept.
    package var received: Int
    /// Packets dropped because the capture buffer was full: any drop makes the capture incomplete.
    package var dropped: Int
    /// Packets the interface dropped.
    package var interfaceDropped: Int
    /// Why the pcap file could not be written whole ("the disk is full"), if it could not.
    package var writeFailure: String?

    package init(received: Int, dropped: Int, interfaceDropped: Int, writeFailure: String? = nil) {
        self.received = received
        self.dropped = dropped
        self.interfaceDropped = interfaceDropped
        self.writeFailure = writeFailure
    }

    /// No packets at all: what a capture that is not running reports.
    package static let empty = CaptureStats(received: 0, dropped: 0, interfaceDropped: 0)

    /// Why a capture with these counters cannot judge the wire, or nil when it lost nothing.
    /// A full buffer comes with its remedies.
    package var incompleteness: String? {
        if let writeFailure { return "the pcap file could not be written whole (\(writeFailure))" }
        guard dropped > 0 || interfaceDropped > 0 else { return nil }
        let hint = dropped > 0 ? " (its buffer filled: a larger --capture-buffer, or --snaplen for a bulk transfer, holds longer bursts)" : ""
        return "the capture dropped \(dropped + interfaceDropped) packets" + hint
    }

    /// What happened between `baseline` and these counters.
    func since(_ baseline: CaptureStats) -> CaptureStats {
        CaptureStats(received: received - baseline.received, dropped: dropped - baseline.dropped,
                     interfaceDropped: interfaceDropped - baseline.interfaceDropped)
    }
}
