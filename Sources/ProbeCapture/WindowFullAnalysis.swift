/// Counts the times a sender filled its receiver's advertised window to the edge and had to
/// wait, as Wireshark's `tcp.analysis.window_full` flags them: a data segment whose end is the
/// receiver's last acknowledgement plus its window (scaled, RFC 7323). A receiver can keep a
/// sender waiting this way without ever advertising a zero window, when each of its reads
/// reopens the window before an ACK would have said zero.
package enum WindowFullAnalysis {
    /// How many of `sender`'s data segments filled the window `receiver` had advertised;
    /// both are directions of one connection, each in capture order.
    package static func fills(by sender: DirectionTrace, of receiver: DirectionTrace) -> Int {
        guard let advertiser = receiver.segments.first?.sourcePort else { return 0 }
        let shift = ConversationRenderer.windowShifts((sender.segments + receiver.segments).filter { $0.flags.contains(.syn) })[advertiser] ?? 0
        var edge: UInt32?
        var counted: UInt32? // the edge last counted: a segment sent again to it is not a new fill
        var fills = 0
        var next = receiver.segments.startIndex
        for segment in sender.segments {
            while next < receiver.segments.endIndex, receiver.segments[next].timestamp <= segment.timestamp {
                let advertisement = receiver.segments[next]
                next += 1
                guard advertisement.flags.contains(.ack), !advertisement.flags.contains(.rst) else { continue }
                // A SYN's window is never scaled.
                let window = advertisement.flags.contains(.syn) ? advertisement.window : advertisement.window << shift
                edge = window == 0 ? nil : advertisement.acknowledgement &+ UInt32(truncatingIfNeeded: window)
            }
            if segment.length > 0, let edge, edge != counted, segment.sequence &+ UInt32(truncatingIfNeeded: segment.length) == edge {
                fills += 1
                counted = edge
            }
        }
        return fills
    }
}
