import NIOCore
import ProbeFraming

/// A connection's expect queue, read from its socket.
///
/// It reads with autoRead off: a read is requested only while the queue holds less than its
/// read limit (the high-water mark, or what the pending expectation needs) and the gate is
/// open, so a flooding peer meets TCP back-pressure instead of growing memory. All state is
/// touched on the channel's event loop only.
final class InboundHandler: ExpectQueue, ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// Whether the handler asks the socket for more bytes.
    enum ReadGate: Equatable {
        /// Whenever the queue is under its read limit.
        case open
        /// Not on its own: the scenario paused reading (`pause reading`; `read slowly` reads
        /// by `readOnce()`).
        case paused
        /// Not while the capture catches up, since `since`: a peer's flood waits on TCP flow
        /// control instead of overflowing the capture.
        case heldForCapture(since: NIODeadline)
    }

    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    @exclusivity(unchecked) private(set) var gate = ReadGate.open
    /// Why reading ever stopped: the scenario asked (`pause reading`, `read slowly`), or the
    /// queue reached its high-water mark with no expect reading it. Either closes the window.
    @exclusivity(unchecked) private(set) var pausedByScenario = false
    @exclusivity(unchecked) private(set) var stoppedAtHighWater = false
    @exclusivity(unchecked) private var context: ChannelHandlerContext?
    /// Set from a read's end until bytes arrive when that end asked the next read, as NIO's own
    /// auto-read does: that read stays pending until bytes come, so the expects and decisions
    /// in between need not ask again (each ask walks the pipeline to the same pending read).
    @exclusivity(unchecked) private var readAsked = false
    /// Between bytes arriving and their read's end, which asks the next read.
    @exclusivity(unchecked) private var inRead = false
    /// On a captured connection: reading holds off while the capture falls behind.
    private let captureHold: CaptureHold?

    init(captureHold: CaptureHold? = nil) {
        self.captureHold = captureHold
    }

    override func readLimitChanged() {
        requestRead()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The buffer grows on the first byte received: ten thousand idle connections cost nothing here.
        self.context = context
        // Sized by `ReceiveSizing` from the start, so a later slow read finds no pooled buffer kept.
        try? context.channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: ReceiveSizing.adaptive)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        stopTimerIfIdle()
    }

    /// Writes and flushes `bytes` from here, the pipeline's last handler: what a write from the
    /// channel does, without the pipeline's generic entry (a dynamic cast and a hop a write).
    func writeAndFlush(_ bytes: ByteBuffer, promise: EventLoopPromise<Void>) {
        guard let context else { return promise.fail(ChannelError.ioOnClosedChannel) }
        context.writeAndFlush(NIOAny(bytes), promise: promise)
    }

    func channelActive(context: ChannelHandlerContext) {
        requestRead()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        (readAsked, inRead) = (false, true)
        receive(unwrapInboundIn(data))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        (readAsked, inRead) = (false, false)
        readAsked = requestRead()
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
        finish(InboundEnd(caught: error))
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The probe marks its own closes first, and errors arrive through errorCaught; so an
        // unexplained inactive channel is the peer's FIN after our own half-close (NIO closes
        // the whole channel then, without an inputClosed event).
        finish(.eof)
        stopTimerIfIdle()
        rules?.stop()
        context.fireChannelInactive()
    }

    /// Asks the socket for more bytes when the gate and the read limit let it: true if it asked.
    @discardableResult
    private func requestRead() -> Bool {
        guard let context, gate == .open, end == nil, !readAsked, !inRead else { return false }
        guard unconsumedBytes < readLimit else {
            stoppedAtHighWater = true
            return false
        }
        if let captureHold, captureHold.mustHold {
            gate = .heldForCapture(since: context.eventLoop.now)
            recheckCapture(captureHold, on: context.eventLoop)
            return false
        }
        context.read()
        return true
    }

    /// While holding for the capture: looks again every `CaptureHold.recheck`, and reads on
    /// once the capture is under its resume mark or the inbound side has ended.
    private func recheckCapture(_ captureHold: CaptureHold, on loop: EventLoop) {
        loop.assumeIsolated().scheduleTask(in: CaptureHold.recheck.timeAmount) { [self] in
            guard case .heldForCapture = gate else { return }
            if end == nil, context != nil, !captureHold.mayResume {
                recheckCapture(captureHold, on: loop)
                return
            }
            move(to: .open, at: loop.now)
            requestRead()
        }
    }

    /// Moves the gate on; a hold for the capture that ends here counts as held reading.
    private func move(to next: ReadGate, at now: NIODeadline) {
        if case .heldForCapture(let since) = gate { captureHold?.heldReading(for: .nanoseconds((now - since).nanoseconds)) }
        gate = next
    }

    /// Stops or resumes reading on the scenario's word.
    func setPaused(_ paused: Bool) {
        if paused {
            pausedByScenario = true
            move(to: .paused, at: context?.eventLoop.now ?? .now())
        } else if gate == .paused {
            gate = .open
        }
        requestRead()
    }

    var isPaused: Bool { gate == .paused }

    /// Slow reading: the socket is drained only by `readOnce()`, `bytes` at a time, so the
    /// receive window fills and the peer's sends stall.
    func beginSlowRead(bytes: Int) throws {
        guard let context else { return }
        setPaused(true)
        let options = context.channel.syncOptions
        try options?.setOption(ChannelOptions.recvAllocator, value: ReceiveSizing.exactly(bytes))
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
        try options?.setOption(ChannelOptions.recvAllocator, value: ReceiveSizing.adaptive)
        try options?.setOption(ChannelOptions.maxMessagesPerRead, value: 4)
        setPaused(paused)
    }
}
