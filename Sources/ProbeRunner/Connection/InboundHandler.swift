#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import ProbeFraming
import ProbeScript
import Synchronization

/// Buffers what a connection receives and decides the pending expectation against it.
///
/// It reads with autoRead off: a read is requested only while the buffer is below its high
/// water mark (or below what the pending expectation needs) and reading is not paused, so a
/// flooding peer meets TCP back-pressure instead of growing memory. Timeouts are scheduled on
/// the same event loop, so a timeout leaves the connection usable for the next step.
/// All state is touched on the channel's event loop only.
final class InboundHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    /// Unconsumed bytes kept even when no expectation asks for them.
    static let highWaterMark = 256 * 1024

    /// The expectation waiting for bytes: a class, so an idle connection holds a reference, not
    /// a matcher's room (ten thousand idle `parallel` copies each hold one connection).
    private final class Pending {
        var matcher: ExpectationMatcher
        let deadline: NIODeadline
        let decided: (MatchOutcome) -> Void

        init(matcher: ExpectationMatcher, deadline: NIODeadline, decided: @escaping (MatchOutcome) -> Void) {
            self.matcher = matcher
            self.deadline = deadline
            self.decided = decided
        }
    }

    /// The one timer for the expects' timeouts, and when it fires. A decided expect leaves it
    /// set: the next expect's deadline is usually later, so the timer, when it fires, sets itself
    /// again for that deadline instead of each expect scheduling and cancelling one (a cancel
    /// searches every timer of the loop).
    private var timer: (deadline: NIODeadline, task: Scheduled<Void>)?

    private var context: ChannelHandlerContext?
    /// Decides the pending expect again when a regex search it started has finished, from
    /// the search thread: made at the first expect, as every expect takes it.
    private var wakeUp: (@Sendable () -> Void)?
    private var buffer = ByteBuffer()
    private var pending: Pending?
    private(set) var end: InboundEnd?
    /// Set once the peer has closed (FIN, RST, or an error): read from any thread.
    private let peerClosed = Atomic<Bool>(false)
    private(set) var recent = RecentBytes()
    private var paused = false
    /// Why reading ever stopped: the scenario asked (`pause reading`, `read slowly`), or the
    /// buffer reached its high-water mark with no expect reading it. Either closes the window.
    private(set) var pausedByScenario = false
    private(set) var stoppedAtHighWater = false
    /// On a captured connection: reading holds off while the capture falls behind, so a peer's
    /// flood waits on TCP flow control instead of overflowing the capture.
    private let captureHold: CaptureHold?
    /// When the current hold for the capture began; nil while not holding.
    private var heldSince: NIODeadline?

    init(captureHold: CaptureHold? = nil) {
        self.captureHold = captureHold
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The buffer grows on the first byte received: ten thousand idle connections cost nothing here.
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        if pending == nil { stopTimer() }
    }

    func channelActive(context: ChannelHandlerContext) {
        requestRead()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        recent.append(incoming.readableBytesView)
        buffer.writeBuffer(&incoming)
        decide()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        requestRead()
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            finish(.eof)
        } else if let end = event as? InboundEnd {
            finish(end)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? IOError, error.errnoCode == ECONNRESET {
            finish(.reset)
        } else {
            finish(.error("\(error)"))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The probe marks its own closes first, and errors arrive through errorCaught; so an
        // unexplained inactive channel is the peer's FIN after our own half-close (NIO closes
        // the whole channel then, without an inputClosed event).
        finish(.eof)
        if pending == nil { stopTimer() }
        context.fireChannelInactive()
    }

    /// Records how the inbound side ended (the first cause wins) and decides any pending expectation.
    private func finish(_ cause: InboundEnd) {
        if end == nil {
            end = cause
            if cause != .closedByProbe { peerClosed.store(true, ordering: .releasing) }
        }
        decide()
    }

    /// Whether the peer has closed the connection, as far as this handler has read.
    var peerHasClosed: Bool { peerClosed.load(ordering: .acquiring) }

    /// Takes bytes the connection received before this handler had it (read from the socket
    /// before NIO did), as if they had just arrived.
    func preload(_ bytes: [UInt8]) {
        recent.append(bytes)
        buffer.writeBytes(bytes)
    }

    /// A proxy's watch (a handler in no pipeline): `bytes` passed by, for its expects to read.
    /// It keeps at most `watchLimit` unread bytes, dropping the oldest, and counts what it dropped.
    func observe(_ bytes: ByteBuffer) {
        recent.append(bytes.readableBytesView)
        var bytes = bytes
        buffer.writeBuffer(&bytes)
        if buffer.readableBytes > Self.watchLimit, pending == nil {
            let excess = buffer.readableBytes - Self.watchLimit
            buffer.moveReaderIndex(forwardBy: excess)
            droppedUnread += excess
            compact()
        }
        decide()
    }

    /// A proxy's watch: the direction it watches ended.
    func observeEnd(_ cause: InboundEnd) {
        finish(cause)
    }

    /// What a proxy's watch keeps for its expects.
    static let watchLimit = 1 << 20
    /// Bytes a proxy's watch dropped unread (over `watchLimit`).
    private(set) var droppedUnread = 0

    /// Marks the inbound side as reset by the peer, for a connection that was reset before its
    /// connect completed (no error reaches this handler then).
    func markReset() {
        finish(.reset)
    }

    /// Marks the connection as closed by the probe, before the close is issued.
    func markClosedByProbe() {
        if end == nil { end = .closedByProbe }
    }

    private func requestRead() {
        guard let context, !paused, heldSince == nil, end == nil else { return }
        let limit = max(Self.highWaterMark, pending?.matcher.bufferNeeded ?? 0)
        guard buffer.readableBytes < limit else {
            stoppedAtHighWater = true
            return
        }
        if let captureHold, captureHold.mustHold {
            heldSince = .now()
            recheckCapture(captureHold, on: context.eventLoop)
        } else {
            context.read()
        }
    }

    /// While holding for the capture: looks again every `CaptureHold.recheck`, and reads on
    /// once the capture is under its resume mark or the inbound side has ended.
    private func recheckCapture(_ captureHold: CaptureHold, on loop: EventLoop) {
        loop.scheduleTask(in: CaptureHold.recheck.timeAmount) { [self] in
            guard let since = heldSince else { return }
            if end == nil, context != nil, !captureHold.mayResume {
                recheckCapture(captureHold, on: loop)
                return
            }
            heldSince = nil
            captureHold.heldReading(for: .nanoseconds((NIODeadline.now() - since).nanoseconds))
            requestRead()
        }
    }

    private func decide() {
        guard let current = pending, let outcome = current.matcher.evaluate(&buffer, end: end) else { return }
        pending = nil
        compact()
        current.decided(outcome)
        requestRead()
    }

    private func compact() {
        if buffer.readerIndex > 64 * 1024 { buffer.discardReadBytes() }
    }

    // MARK: - Called from the connection, on the event loop

    /// Calls `decided` with what `matcher` decides, or with a time-out after `timeout`; at once
    /// when the bytes already received decide it.
    func expect(_ matcher: ExpectationMatcher, timeout: TimeAmount, on loop: EventLoop, decided: @escaping (MatchOutcome) -> Void) {
        loop.preconditionInEventLoop()
        precondition(pending == nil, "one expectation at a time per connection")
        var matcher = matcher
        // Not `wakeUp ?? {…}`: through the generic `??` a closure comes back wrapped in one
        // more thunk each time, and the thousandth expect's wake ran a thousand thunks deep.
        if let wake = wakeUp {
            matcher.wake = wake
        } else {
            let wake: @Sendable () -> Void = { [weak self] in loop.execute { self?.decide() } }
            (wakeUp, matcher.wake) = (wake, wake)
        }
        if let outcome = matcher.evaluate(&buffer, end: end) {
            compact()
            requestRead()
            return decided(outcome)
        }
        let deadline = NIODeadline.now() + timeout
        pending = Pending(matcher: matcher, deadline: deadline, decided: decided)
        if timer.map({ $0.deadline > deadline }) ?? true { setTimer(for: deadline, on: loop) }
        requestRead()
    }

    private func setTimer(for deadline: NIODeadline, on loop: EventLoop) {
        timer?.task.cancel()
        timer = (deadline, loop.scheduleTask(deadline: deadline) { [self] in timerFired(at: deadline, on: loop) })
    }

    private func stopTimer() {
        timer?.task.cancel()
        timer = nil
    }

    /// Times out the pending expect when its deadline has come; sets the timer again for a
    /// later one.
    private func timerFired(at deadline: NIODeadline, on loop: EventLoop) {
        // A timer the loop had already taken to run when it was replaced: the new one decides.
        guard timer?.deadline == deadline else { return }
        timer = nil
        guard let expired = pending else { return }
        guard expired.deadline <= .now() else { return setTimer(for: expired.deadline, on: loop) }
        pending = nil
        if expired.matcher.timeoutMeansSuccess {
            expired.decided(.matched(captures: [:], detail: "no byte and no close"))
        } else {
            expired.decided(.timedOut(waitingFor: expired.matcher.waitingFor, pending: Array(buffer.readableBytesView.prefix(200))))
        }
    }

    func setPaused(_ paused: Bool) {
        self.paused = paused
        pausedByScenario = pausedByScenario || paused
        requestRead()
    }

    var isPaused: Bool { paused }

    /// Slow reading: the socket is drained only by `readOnce()`, `bytes` at a time, so the
    /// receive window fills and the peer's sends stall.
    func beginSlowRead(bytes: Int) throws {
        guard let context else { return }
        paused = true
        pausedByScenario = true
        let options = context.channel.syncOptions
        try options?.setOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: bytes))
        try options?.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
    }

    /// One read of at most the slow-read size; a no-op once the inbound side has ended.
    func readOnce() {
        guard let context, end == nil else { return }
        context.read()
    }

    /// Back to normal reading (or to paused, when `pause reading` was in force before).
    func endSlowRead(paused: Bool) throws {
        guard let context else { return }
        let options = context.channel.syncOptions
        try options?.setOption(ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator())
        try options?.setOption(ChannelOptions.maxMessagesPerRead, value: 4)
        setPaused(paused)
    }

    /// Takes every byte no expect has consumed: at `starttls` they belong to the TLS layer.
    func takeUnconsumed() -> ByteBuffer {
        let taken = buffer
        buffer.clear()
        return taken
    }

    /// How many received bytes no expect has consumed.
    var unconsumedBytes: Int { buffer.readableBytes }

    /// The first `count` of those bytes.
    func unreadHead(_ count: Int) -> [UInt8] { Array(buffer.readableBytesView.prefix(count)) }
}
