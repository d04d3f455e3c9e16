/// Tells, segment by segment in capture order, which data segments filled the window their
/// receiver had advertised, to its right edge, as Wireshark's `tcp.analysis.window_full` flags
/// them: the segment's end is the receiver's last acknowledgement plus its window (scaled, RFC
/// 7323), and the sender must wait. A receiver can keep a sender waiting this way without ever
/// advertising a zero window, when each of its reads reopens the window before an ACK would
/// have said zero.
package struct WindowFullAnalysis: Sendable {
    /// Each side's window-scale shift by its port (`ConversationRenderer.windowShifts`).
    private let windowShifts: [Int: Int]
    /// The right edge of the window each side last advertised, by its port; none while zero.
    private var edges: [Int: UInt32] = [:]

    package init(windowShifts: [Int: Int]) {
        self.windowShifts = windowShifts
    }

    /// Whether `segment`, captured after every segment given before, carries data that fills
    /// the other side's window to its edge (sent again or not, as Wireshark marks it).
    package mutating func fillsWindow(_ segment: TCPSegment) -> Bool {
        defer { noteAdvertisement(segment) }
        guard segment.length > 0, let edge = edges[segment.destinationPort] else { return false }
        return segment.sequence &+ UInt32(truncatingIfNeeded: segment.length) == edge
    }

    private mutating func noteAdvertisement(_ segment: TCPSegment) {
        guard segment.flags.contains(.ack), !segment.flags.contains(.rst) else { return }
        // A SYN's window is never scaled.
        let shift = segment.flags.contains(.syn) ? 0 : windowShifts[segment.sourcePort] ?? 0
        let window = segment.window << shift
        edges[segment.sourcePort] = window == 0 ? nil : segment.acknowledgement &+ UInt32(truncatingIfNeeded: window)
    }

    /// How many of `sender`'s data segments filled the window `receiver` had advertised; both
    /// are directions of one connection, each in capture order.
    package static func fills(by sender: DirectionTrace, of receiver: DirectionTrace) -> Int {
        let synchronizing = (sender.segments + receiver.segments).filter { $0.flags.contains(.syn) }
        var analysis = WindowFullAnalysis(windowShifts: ConversationRenderer.windowShifts(synchronizing))
        var fills = 0
        var next = receiver.segments.startIndex
        for segment in sender.segments {
            while next < receiver.segments.endIndex, receiver.segments[next].timestamp <= segment.timestamp {
                _ = analysis.fillsWindow(receiver.segments[next])
                next += 1
            }
            if analysis.fillsWindow(segment) { fills += 1 }
        }
        return fills
    }
}
