/// What a network's link did to the packets of one direction.
package struct LinkCounts: Sendable, Equatable {
    /// Packets and bytes that came to the link.
    package var packets = 0
    package var bytes = 0
    /// Dropped by `loss` or `partition`.
    package var dropped = 0
    /// Dropped because the link's queue was full (a rate or delay holding too many).
    package var overflowed = 0
    /// Held by `delay` or `rate` before they went on.
    package var delayed = 0
    /// Held back by `reorder`.
    package var reordered = 0
    /// Sent twice by `duplicate`.
    package var duplicated = 0

    package init() {}

    /// "120 packets (9,600 bytes): 12 dropped, 3 duplicated"; the faults that did nothing are left out.
    package var summary: String {
        let done = [(dropped, "dropped"), (overflowed, "dropped at a full queue"), (delayed, "delayed"), (reordered, "reordered"), (duplicated, "duplicated")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return "\(packets) packet\(packets == 1 ? "" : "s") (\(bytes) bytes)" + (done.isEmpty ? "" : ": " + done.joined(separator: ", "))
    }
}
