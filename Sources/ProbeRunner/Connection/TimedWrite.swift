import NIOCore

/// One write of a connection's, whose end is told once, on the channel's loop: when the write
/// completes or fails, or when its timeout passes first (the peer is not reading). It holds
/// what its end needs inline (`End`, a value), so a round trip's write is this object and its
/// promise, with no closure boxed beside them. Touched on the loop only: its callbacks are the
/// loop's isolated ones.
final class TimedWrite<End: WriteEnd> {
    private let count: Int
    private let connection: ProbeConnection
    /// What the write tells as it ends, and what the end keeps (a send's plan, for its log).
    let end: End
    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    @exclusivity(unchecked) private var told = false
    @exclusivity(unchecked) private var timer: Scheduled<Void>?

    /// A write of `count` bytes on `connection`, which counts them once written.
    init(_ count: Int, on connection: ProbeConnection, _ end: consuming End) {
        self.count = count
        self.connection = connection
        self.end = end
    }

    /// The write completed or failed: tells so, unless the timeout was told first.
    func complete(_ result: Result<Void, Error>) {
        if case .success = result { connection.countSent(count) }
        timer?.cancel()
        guard !told else { return }
        told = true
        end.written(result.map { true }, by: self)
    }

    /// Tells false once `timeout` passes, unless the write has completed by then. A write the
    /// socket takes at once has completed before this is called, and schedules nothing.
    func armTimeout(_ timeout: Duration, on loop: EventLoop) {
        guard !told else { return }
        timer = loop.assumeIsolated().scheduleTask(in: timeout.timeAmount) { [self] in
            told = true
            end.written(.success(false), by: self)
        }
    }
}
