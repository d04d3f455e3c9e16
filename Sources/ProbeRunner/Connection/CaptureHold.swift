import FoundationEssentials
import ProbeCapture
import ProbeScript
import Synchronization

/// Holds a captured run's own traffic back while its capture falls behind (a page-cache write
/// stalling the capture's reader, say), so that the capture costs time instead of packets; and
/// adds up how long sending and reading were held, for the run's notes.
final class CaptureHold: Sendable {
    /// Traffic holds once more than this share of the capture's buffer waits to be written,
    /// leaving at least a fifth of the ring for what the kernel still takes once the run holds…
    static let holdAbove = 0.8
    /// …and goes on once less than this share does. Holding earlier, at a half until a
    /// quarter, held more often for no fewer drops (none either way).
    static let resumeBelow = 0.6
    /// Slots kept free on a small ring, whatever its share: after the run holds, a peer may
    /// still send up to the probe's receive buffer (about 6 MiB, 96 whole packets), and ACKs
    /// take a slot each. The 32 MiB default ring has about 510 whole-packet slots.
    static let reservedSlots = 128

    /// This capture's marks: `holdAbove` and `resumeBelow`, lowered on a ring whose fifth is
    /// under `reservedSlots`.
    let holdMark: Double
    let resumeMark: Double
    /// How often a hold looks at the capture again.
    static let recheck: Duration = .milliseconds(1)

    private let capture: any PacketCapture
    /// How long sending and reading were held.
    private let held = Mutex<(sending: Duration, reading: Duration)>((.zero, .zero))

    init(_ capture: any PacketCapture) {
        self.capture = capture
        let slots = Double(max(1, capture.ringSlots))
        holdMark = max(0.3, min(Self.holdAbove, 1 - Double(Self.reservedSlots) / slots))
        resumeMark = holdMark - (Self.holdAbove - Self.resumeBelow)
    }

    /// Whether traffic should stop for now: the capture's buffer is over `holdMark` full.
    var mustHold: Bool { capture.ringFill() > holdMark }
    /// Whether held traffic may go on: the capture's buffer is under `resumeMark` full.
    var mayResume: Bool { capture.ringFill() < resumeMark }

    func heldSending(for duration: Duration) {
        held.withLock { $0.sending += duration }
    }

    func heldReading(for duration: Duration) {
        held.withLock { $0.reading += duration }
    }

    /// What was held, for the run's notes; nil when nothing was.
    var summary: String? {
        let (sent, read) = held.withLock { $0 }
        guard sent > .zero || read > .zero else { return nil }
        var parts: [String] = []
        if sent > .zero { parts.append("sending for \(DurationFormat.short(sent))") }
        if read > .zero { parts.append("reading for \(DurationFormat.short(read))") }
        let held = parts.joined(separator: " and ")
        return "the capture fell behind, so the run held \(held) until it caught up (time, not packets, lost)"
    }
}
