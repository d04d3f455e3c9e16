/// A capture of the scenario's own traffic, as the runner uses it. `PcapCapture` is the
/// libpcap implementation; tests or other platforms may provide others.
package protocol PacketCapture: AnyObject, Sendable {
    /// The file the capture is written to (its final name).
    var path: String { get }
    /// Adds a port to the capture filter; call before traffic on that port starts.
    func watch(port: Int) throws
    /// Marks the connection between the two ports as this capture's: when other captures
    /// watch one of its ports too, its packets come here alone (held until this call).
    func claim(probePort: Int, peerPort: Int)
    /// A barrier: everything captured so far is readable when it returns.
    func sync()
    func stats() -> CaptureStats
    /// About what share of the capture's buffer waits to be written (0 to 1): senders hold off
    /// while it is high, so the run's own traffic never outruns the capture.
    func ringFill() -> Double
    /// About how many packets the capture's buffer holds.
    var ringSlots: Int { get }
    /// The TCP segments captured so far (after `sync()`), each keeping at most `payloadPrefix`
    /// bytes of its payload: checks of lengths and flags need none of it.
    func segments(payloadPrefix: Int) throws -> [TCPSegment]
    /// Stops, flushes and closes the file under its final name.
    @discardableResult func stop() -> CaptureStats
}

extension PcapCapture: PacketCapture {
    package var ringSlots: Int { shared.ring.capacity }
}
