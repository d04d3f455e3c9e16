import NIOCore
import ProbeFraming
import Synchronization

/// What a connection, or one direction of a proxy, received and no expect has consumed, and
/// the one expect waiting on it: the bytes, how the stream ended, and the timer that times the
/// expect out. It decides the expect whenever bytes or the end arrive. It reads no socket
/// (`ProxyPump` feeds a watch's), so tests drive it on an `EmbeddedEventLoop`, advancing the
/// loop's clock. A connection's is its `InboundHandler`, a subclass that reads the socket into
/// it: one object a connection, as ten thousand idle `parallel` copies each hold one.
/// Touched on its loop only.
class ExpectQueue {
    /// Unconsumed bytes kept even when no expectation asks for them.
    static let highWaterMark = 256 * 1024
    /// What a proxy's watch keeps for its expects.
    static let watchLimit = 1 << 20

    /// The queue a matcher's wake-up decides again, if it is still there.
    private final class WeakQueue {
        weak var queue: ExpectQueue?
        init(_ queue: ExpectQueue) { self.queue = queue }
    }

    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    /// The one timer for the expects' timeouts, and when it fires. A decided expect leaves it
    /// set: the next expect's deadline is usually later, so the timer, when it fires, sets itself
    /// again for that deadline instead of each expect scheduling and cancelling one (a cancel
    /// searches every timer of the loop).
    @exclusivity(unchecked) private var timer: (deadline: NIODeadline, task: Scheduled<Void>)?
    /// Decides the pending expect again when a regex search it started has finished, from
    /// the search thread: made as the first search starts, on `loop`, the first expect's.
    /// Only then does a weak reference to the queue exist: it would make every retain and
    /// release of the queue take the runtime's slow path, 500 instructions a round trip.
    @exclusivity(unchecked) private var wakeUp: (@Sendable () -> Void)?
    @exclusivity(unchecked) private var loop: EventLoop?
    @exclusivity(unchecked) private var buffer = ByteBuffer()
    /// Set while a matcher or the rules work on `buffer` (see `withBuffer`).
    @exclusivity(unchecked) private var inBuffer = false
    /// A decide asked for while `inBuffer`, to be made once the buffer is free.
    @exclusivity(unchecked) private var decideAgain = false
    /// The expect waiting for bytes: an object, so an idle connection holds a reference, not
    /// a matcher's room (ten thousand idle `parallel` copies each hold one connection).
    @exclusivity(unchecked) private var pending: WaitingExpect?
    @exclusivity(unchecked) private(set) var end: InboundEnd?
    /// Set once the peer has closed (FIN, RST, or an error): read from any thread.
    private let peerClosed = Atomic<Bool>(false)
    @exclusivity(unchecked) private(set) var recent = RecentBytes()
    /// Bytes dropped unread over a watch's limit (`receive(_:keepingAtMost:)`).
    @exclusivity(unchecked) private(set) var droppedUnread = 0
    /// A connection's background rules (`on …`): they take what they match, as it arrives and
    /// from what is already unread, before any expect sees it.
    var rules: ReadRules? {
        didSet {
            withBuffer { rules?.take(from: &$0) }
            decide()
        }
    }

    /// The connection's HTTP/2 layer: it takes whole frames as they arrive (answering SETTINGS
    /// and PINGs) before the rules or any expect see them.
    var layer: HTTP2Session? {
        didSet {
            withBuffer { layer?.take(from: &$0) }
            decide()
        }
    }

    init() {}

    /// Called, on the loop, when what the reader may read has changed: an expect was decided
    /// (it consumed bytes) or began waiting (it may need more than the high-water mark). A
    /// socket's reader reads then; a proxy's watch takes what passes regardless.
    func readLimitChanged() {}

    /// Bytes received: the pending expect is decided on them. With `limit` (a proxy's watch,
    /// which must not hold the stream back) it keeps at most that many unread bytes while no
    /// expect waits, dropping the oldest and counting them.
    func receive(_ bytes: ByteBuffer, keepingAtMost limit: Int? = nil) {
        bytes.withUnsafeReadableBytes { recent.append($0) }
        var bytes = bytes
        buffer.writeBuffer(&bytes)
        withBuffer {
            layer?.take(from: &$0)
            rules?.take(from: &$0)
        }
        if let limit, buffer.readableBytes > limit, pending == nil {
            let excess = buffer.readableBytes - limit
            buffer.moveReaderIndex(forwardBy: excess)
            droppedUnread += excess
            compact()
        }
        decide()
    }

    /// Takes bytes the connection received before its handler had it (read from the socket
    /// before NIO did), as if they had just arrived, deciding nothing: no expect waits yet.
    func preload(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { recent.append($0) }
        buffer.writeBytes(bytes)
    }

    /// Records how the stream ended (the first cause wins) and decides any pending expectation.
    func finish(_ cause: InboundEnd) {
        if end == nil {
            end = cause
            if cause != .closedByProbe { peerClosed.store(true, ordering: .releasing) }
        }
        decide()
    }

    /// Marks the stream as closed by the probe, before the close is issued.
    func markClosedByProbe() {
        if end == nil { end = .closedByProbe }
    }

    /// Whether the peer has closed the connection, as far as the probe has read.
    var peerHasClosed: Bool { peerClosed.load(ordering: .acquiring) }

    /// How many unconsumed bytes the reader may let pile up: the high-water mark, or more when
    /// the pending expect needs more to decide.
    var readLimit: Int { max(Self.highWaterMark, pending?.matcher.bufferNeeded ?? 0) }

    /// How many received bytes no expect has consumed.
    var unconsumedBytes: Int { buffer.readableBytes }

    /// The first `count` of those bytes.
    func unreadHead(_ count: Int) -> [UInt8] { Array(buffer.readableBytesView.prefix(count)) }

    /// Takes every byte no expect has consumed: at `starttls` they belong to the TLS layer.
    func takeUnconsumed() -> ByteBuffer {
        let taken = buffer
        buffer.clear()
        return taken
    }

    /// Tells `waiting` what its matcher decides, or a time-out after `timeout` by `loop`'s
    /// clock; at once when the bytes already received decide it.
    func expect(_ waiting: WaitingExpect, timeout: TimeAmount, on loop: EventLoop) {
        loop.assertInEventLoop() // its callers hop onto the loop first
        precondition(pending == nil, "one expectation at a time per connection")
        if self.loop == nil { self.loop = loop }
        decideAgain = false
        if let outcome = withBuffer({ waiting.matcher.evaluate(&$0, end: end, waker: waker) }) {
            compact()
            readLimitChanged()
            return waiting.decided(outcome)
        }
        let deadline = loop.now + timeout
        waiting.deadline = deadline
        pending = waiting
        if timer.map({ $0.deadline > deadline }) ?? true { setTimer(for: deadline, on: loop) }
        readLimitChanged()
        if decideAgain { decide() }
    }

    /// The pending expect's wake-up (see `wakeUp`), made the first time a search asks for it.
    private func waker() -> @Sendable () -> Void {
        if let wakeUp { return wakeUp }
        guard let loop else { preconditionFailure("a search starts only in an expect, which sets the loop") }
        let queue = NIOLoopBound(WeakQueue(self), eventLoop: loop)
        let wake: @Sendable () -> Void = { loop.execute { queue.value.queue?.decide() } }
        wakeUp = wake
        return wake
    }

    /// Cancels the timer when no expect waits: the connection is going away.
    func stopTimerIfIdle() {
        guard pending == nil else { return }
        timer?.task.cancel()
        timer = nil
    }

    private func decide() {
        guard !inBuffer else { return decideAgain = true }
        decideAgain = false
        guard let current = pending, let outcome = withBuffer({ current.matcher.evaluate(&$0, end: end, waker: waker) }) else {
            if decideAgain { decide() }
            return
        }
        pending = nil
        compact()
        current.decided(outcome)
        readLimitChanged()
    }

    /// Lets a matcher or the rules work on the unconsumed bytes. They may write (a WebSocket
    /// close answered, a pong, a rule's answer), and a write that fails at once closes the
    /// channel, whose handler then asks for a decide from inside this call: that decide waits
    /// until the buffer is free again, rather than touch it twice at once.
    private func withBuffer<Result>(_ body: (inout ByteBuffer) -> Result) -> Result {
        inBuffer = true
        defer { inBuffer = false }
        return body(&buffer)
    }

    private func compact() {
        if buffer.readerIndex > 64 * 1024 { buffer.discardReadBytes() }
    }

    private func setTimer(for deadline: NIODeadline, on loop: EventLoop) {
        timer?.task.cancel()
        timer = (deadline, loop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in timerFired(at: deadline, on: loop) })
    }

    /// Times out the pending expect when its deadline has come; sets the timer again for a
    /// later one.
    private func timerFired(at deadline: NIODeadline, on loop: EventLoop) {
        // A timer the loop had already taken to run when it was replaced: the new one decides.
        guard timer?.deadline == deadline else { return }
        timer = nil
        guard let expired = pending else { return }
        guard expired.deadline <= loop.now else { return setTimer(for: expired.deadline, on: loop) }
        pending = nil
        if expired.matcher.timeoutMeansSuccess {
            expired.decided(.matched(captures: [:], detail: "no byte and no close"))
        } else {
            let pending = Array(buffer.readableBytesView.prefix(200))
            expired.decided(.timedOut(waitingFor: expired.matcher.waitingFor, pending: pending, misframing: expired.matcher.misframing(pending)))
        }
    }
}
