import NIOCore
import ProbeHost
import ProbeFraming
import ProbeScript

/// One direction of a proxied connection: it reads its source leg, lets the scenario's expects
/// watch what passed, and writes it to the other leg as the faults say: late, paced, in slices,
/// held, or cut after a count. Order is kept: only the head of the queue is ever due.
/// It reads only while not held, its queue is short and the other leg takes writes, so a held
/// or slow direction fills the TCP windows instead of memory. Touched on its link's event loop,
/// whose clock it reads (`EventLoop.now`), so its faults run on an embedded loop's virtual time.
/// Sendable: confined to its link's event loop.
final class ProxyPump: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let direction: ProxyDirection
    /// The expects' view of what passed.
    let watch = ExpectQueue()
    var faults: ProxyFaults
    /// The leg it writes to, once both legs are up.
    var target: Channel?
    /// Asked to cut or reset the link when `cut after` runs out.
    var onCutAfter: (() -> Void)?
    /// Called when its own channel (the other direction's target) can take writes again.
    var onWritable: (() -> Void)?
    /// Told what it reads, as it reads it, and how its source ended: a recording proxy's ear.
    var onRead: ((ByteBuffer) -> Void)?
    var onEnd: ((InboundEnd) -> Void)?
    private(set) var forwarded = 0

    private struct Piece {
        var bytes: ByteBuffer
        var due: NIODeadline
    }

    private var context: ChannelHandlerContext?
    private var queue = CircularBuffer<Piece>()
    private var queuedBytes = 0
    private var lastWrite: NIODeadline?
    private var rateClock = NIODeadline.uptimeNanoseconds(0)
    private var scheduled: Scheduled<Void>?
    private var sourceEnded: InboundEnd?
    private var targetShut = false
    private var random: SeededGenerator

    /// Queued bytes past which it stops reading its source.
    static let highWaterMark = 256 * 1024

    init(direction: ProxyDirection, faults: ProxyFaults, seed: UInt64) {
        self.direction = direction
        self.faults = faults
        random = SeededGenerator(seed: seed)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelActive(context: ChannelHandlerContext) {
        requestRead()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        watch.receive(bytes, keepingAtMost: ExpectQueue.watchLimit)
        onRead?(bytes)
        // A stopped direction reads on for its watch and drops what it reads.
        guard !targetShut else { return }
        let now = context.eventLoop.now
        let jitter = faults.jitter.nanoseconds > 0 ? Int64.random(in: -faults.jitter.nanoseconds...faults.jitter.nanoseconds, using: &random) : 0
        let due = now + faults.delay + .nanoseconds(jitter)
        while bytes.readableBytes > 0 {
            let size = min(bytes.readableBytes, faults.pieceSize(&random) ?? bytes.readableBytes)
            queue.append(Piece(bytes: bytes.readSlice(length: size)!, due: due))
            queuedBytes += size
        }
        pump()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        requestRead()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { sourceEnd(.eof) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        sourceEnd(InboundEnd(caught: error))
    }

    func channelInactive(context: ChannelHandlerContext) {
        sourceEnd(.eof)
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { onWritable?() }
        context.fireChannelWritabilityChanged()
    }

    /// The source leg ended: a FIN is passed on once the queue is forwarded; a reset at once.
    private func sourceEnd(_ end: InboundEnd) {
        guard sourceEnded == nil else { return }
        sourceEnded = end
        watch.finish(end)
        onEnd?(end)
        if end == .reset {
            stop()
            if let target { ProxyLink.abort(target) }
        }
        pump()
    }

    /// Changes its faults from now on; queued bytes take the new ones when they come due.
    func apply(_ change: ProxyFaults.Change) {
        faults.apply(change)
        pump()
        requestRead()
    }

    /// Forwards nothing more, and passes no FIN on: its target is being reset. It reads on, so
    /// the watch still sees what the source sends.
    func stop() {
        queue.removeAll()
        queuedBytes = 0
        targetShut = true
        scheduled?.cancel()
        requestRead()
    }

    /// Starts reading once both legs are up.
    func start(target: Channel) {
        self.target = target
        requestRead()
    }

    /// Reads its source while not held, its queue is short and its target takes writes, or,
    /// once stopped, to drop what comes.
    func requestRead() {
        guard let context, let target, !faults.held, sourceEnded == nil, queuedBytes < Self.highWaterMark, targetShut || target.isWritable else { return }
        context.read()
    }

    /// Writes every piece that is due, in order, and schedules itself for the next.
    func pump() {
        scheduled?.cancel()
        scheduled = nil
        guard let target, !targetShut else { return }
        while let head = queue.first, !faults.held {
            let due = dueTime(head)
            let now = target.eventLoop.now
            if due > now {
                scheduled = target.eventLoop.scheduleTask(deadline: due) { [self] in pump() }
                return
            }
            queue.removeFirst()
            queuedBytes -= head.bytes.readableBytes
            var bytes = head.bytes
            if let left = faults.cutAfter, bytes.readableBytes >= left {
                forward(bytes.readSlice(length: left)!, at: now, to: target)
                faults.cutAfter = 0
                stop()
                onCutAfter?()
                return
            }
            faults.cutAfter = faults.cutAfter.map { $0 - bytes.readableBytes }
            forward(bytes, at: now, to: target)
        }
        if queue.isEmpty, let end = sourceEnded, end != .reset, !targetShut {
            targetShut = true
            target.close(mode: .output, promise: nil)
        }
        requestRead()
    }

    /// When `piece` may go: its delay, the slice's gap after the last write, the rate's clock.
    private func dueTime(_ piece: Piece) -> NIODeadline {
        var due = piece.due
        if let slice = faults.slice, let lastWrite { due = max(due, lastWrite + slice.every) }
        if faults.rate != nil { due = max(due, rateClock) }
        return due
    }

    private func forward(_ bytes: ByteBuffer, at now: NIODeadline, to target: Channel) {
        guard bytes.readableBytes > 0 else { return }
        forwarded += bytes.readableBytes
        lastWrite = now
        if let rate = faults.rate {
            rateClock = max(rateClock, now) + .nanoseconds(Int64(Double(bytes.readableBytes) / Double(rate) * 1e9))
        }
        target.writeAndFlush(bytes, promise: nil)
    }
}
