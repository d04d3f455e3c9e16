import NIOCore
import NIOEmbedded
import ProbeFraming
@testable import ProbeRunner
import ProbeScript
import Testing

/// The read engine without sockets: the expect queue and the handler's read gate, driven on an
/// `EmbeddedEventLoop` whose clock moves only when the test advances it, so timeouts are
/// checked to the nanosecond and take no wall time.
@Suite struct ExpectQueueTests {
    private let lines = TerminatedLineFraming(terminator: [13, 10], maxLine: 64)

    private func matcher(_ rule: ExpectationMatcher.Rule) -> ExpectationMatcher {
        ExpectationMatcher(rule, framing: lines)
    }

    private func matched(_ outcome: MatchOutcome?) -> Bool {
        if case .matched = outcome { return true }
        return false
    }

    /// What an expect was decided as, once it is.
    private final class Verdict {
        var outcome: MatchOutcome?
        var at: NIODeadline?
    }

    private func expect(_ rule: ExpectationMatcher.Rule, within timeout: TimeAmount, on queue: ExpectQueue, _ loop: EmbeddedEventLoop) -> Verdict {
        let verdict = Verdict()
        queue.expect(DecidedCallback(matcher(rule)) { outcome in
            #expect(verdict.outcome == nil, "decided twice")
            (verdict.outcome, verdict.at) = (outcome, loop.now)
        }, timeout: timeout, on: loop)
        return verdict
    }

    @Test func anExpectTimesOutAtItsDeadlineWithWhatArrived() {
        let loop = EmbeddedEventLoop()
        let queue = ExpectQueue()
        let start = loop.now
        let verdict = expect(.line(.exact(BytePattern(Array("pong".utf8)))), within: .seconds(5), on: queue, loop)
        queue.receive(ByteBuffer(string: "po"))
        loop.advanceTime(by: .seconds(5) - .nanoseconds(1))
        #expect(verdict.outcome == nil, "it timed out early")
        loop.advanceTime(by: .nanoseconds(1))
        #expect(verdict.outcome == .timedOut(waitingFor: "line \"pong\"", pending: Array("po".utf8)))
        #expect(verdict.at == start + .seconds(5))
    }

    @Test func bytesDecideAnExpectWhenTheyArriveOrAtOnceWhenAlreadyThere() {
        let loop = EmbeddedEventLoop()
        let queue = ExpectQueue()
        queue.receive(ByteBuffer(string: "one\r\ntw"))
        let first = expect(.line(.exact(BytePattern(Array("one".utf8)))), within: .seconds(1), on: queue, loop)
        #expect(first.outcome == .matched(captures: [:], detail: "line \"one\""))
        let second = expect(.line(.exact(BytePattern(Array("two".utf8)))), within: .seconds(1), on: queue, loop)
        #expect(second.outcome == nil)
        queue.receive(ByteBuffer(string: "o\r\n"))
        #expect(second.outcome == .matched(captures: [:], detail: "line \"two\""))
        #expect(queue.unconsumedBytes == 0 && queue.recent.total == 10)
    }

    /// The expects share one timer. A matched expect leaves it set for its own deadline; the
    /// next expect's deadline, later or earlier, is kept all the same.
    @Test(arguments: [(first: 5, second: 7), (first: 5, second: 2)])
    func anExpectAfterAMatchedOneTimesOutAtItsOwnDeadline(first: Int64, second: Int64) {
        let loop = EmbeddedEventLoop()
        let queue = ExpectQueue()
        let start = loop.now
        queue.receive(ByteBuffer(string: "ping\r\n"))
        #expect(expect(.line(.any), within: .seconds(first), on: queue, loop).outcome != nil)
        let never = expect(.line(.any), within: .seconds(second), on: queue, loop)
        loop.advanceTime(to: start + .seconds(second) - .nanoseconds(1))
        #expect(never.outcome == nil)
        loop.advanceTime(to: start + .seconds(max(first, second)) + .seconds(1))
        #expect(never.at == start + .seconds(second), "timed out at \(String(describing: never.at)) instead of \(second) s")
    }

    @Test func silenceIsMetAtTheTimeoutAndBrokenByAByte() {
        let loop = EmbeddedEventLoop()
        let quiet = ExpectQueue()
        let silence = expect(.nothing, within: .seconds(1), on: quiet, loop)
        loop.advanceTime(by: .seconds(1))
        #expect(silence.outcome == .matched(captures: [:], detail: "no byte and no close"))
        let noisy = ExpectQueue()
        let broken = expect(.nothing, within: .seconds(1), on: noisy, loop)
        loop.advanceTime(by: .milliseconds(500))
        noisy.receive(ByteBuffer(string: "x"))
        guard case .failed = broken.outcome else {
            Issue.record("a byte did not break the silence: \(String(describing: broken.outcome))")
            return
        }
        loop.advanceTime(by: .seconds(1))
    }

    /// The first end wins; the probe's own close is not the peer's.
    @Test func theFirstEndWinsAndTheProbesCloseIsNotThePeers() {
        let loop = EmbeddedEventLoop()
        let queue = ExpectQueue()
        let eof = expect(.eof, within: .seconds(1), on: queue, loop)
        queue.finish(.eof)
        queue.finish(.reset)
        #expect(queue.end == .eof && queue.peerHasClosed)
        #expect(matched(eof.outcome), "\(String(describing: eof.outcome))")
        let closed = ExpectQueue()
        closed.markClosedByProbe()
        closed.finish(.reset)
        #expect(closed.end == .closedByProbe && !closed.peerHasClosed)
    }

    /// A proxy's watch keeps at most its limit while no expect waits, dropping the oldest bytes
    /// and counting them; an expect that waits sees every byte.
    @Test func aWatchDropsTheOldestBytesOverItsLimitUnlessAnExpectWaits() {
        let loop = EmbeddedEventLoop()
        let watch = ExpectQueue()
        watch.receive(ByteBuffer(string: "0123456789"), keepingAtMost: 4)
        #expect(watch.droppedUnread == 6 && watch.unreadHead(10) == Array("6789".utf8))
        let waiting = expect(.exactBytes(BytePattern(Array("6789abcd".utf8))), within: .seconds(1), on: watch, loop)
        watch.receive(ByteBuffer(string: "ab"), keepingAtMost: 4)
        #expect(watch.droppedUnread == 6 && waiting.outcome == nil)
        watch.receive(ByteBuffer(string: "cd"), keepingAtMost: 4)
        #expect(matched(waiting.outcome), "\(String(describing: waiting.outcome))")
        loop.advanceTime(by: .seconds(1))
    }

    /// The read limit is the high-water mark, or what a waiting expect needs; the reader is
    /// told when an expect waits and when one is decided.
    /// Counts what a reader is told.
    private final class CountingQueue: ExpectQueue, @unchecked Sendable {
        var changes = 0
        override func readLimitChanged() { changes += 1 }
    }

    @Test func theReadLimitFollowsTheWaitingExpect() {
        let loop = EmbeddedEventLoop()
        let queue = CountingQueue()
        #expect(queue.readLimit == ExpectQueue.highWaterMark)
        let big = ExpectQueue.highWaterMark * 2
        let waiting = expect(.byteCount(big, equals: nil), within: .seconds(1), on: queue, loop)
        #expect(queue.readLimit == big && queue.changes == 1)
        queue.receive(ByteBuffer(repeating: 0x61, count: big))
        #expect(waiting.outcome != nil && queue.changes == 2)
        #expect(queue.readLimit == ExpectQueue.highWaterMark && queue.unconsumedBytes == 0)
    }

    /// Counts the reads a handler asks of its channel.
    private final class ReadCounter: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = Never
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// `handler` on a connected embedded channel, with the reads it asks counted.
    private func connected(_ handler: InboundHandler = InboundHandler()) throws -> (ReadCounter, InboundHandler, EmbeddedChannel) {
        let counter = ReadCounter()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([counter, handler])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (counter, handler, channel)
    }

    /// A read asked at a read's end stays pending until bytes come, as NIO's auto-read relies
    /// on: the expects begun and decided meanwhile, and the decision made as bytes arrive,
    /// ask no other read; the next read's end asks again.
    @Test func aPendingReadIsNotAskedAgain() throws {
        let (counter, handler, channel) = try connected()
        try channel.writeInbound(ByteBuffer(string: "one\r\n"))
        #expect(counter.reads == 2, "a read when the channel becomes active, one when a read completes")
        var first: MatchOutcome?
        handler.expect(DecidedCallback(matcher(.line(.exact(BytePattern(Array("one".utf8)))))) { first = $0 }, timeout: .seconds(1), on: channel.embeddedEventLoop)
        var second: MatchOutcome?
        handler.expect(DecidedCallback(matcher(.line(.exact(BytePattern(Array("two".utf8)))))) { second = $0 }, timeout: .seconds(1), on: channel.embeddedEventLoop)
        #expect(first != nil && second == nil && counter.reads == 2, "an expect asked again for the pending read")
        try channel.writeInbound(ByteBuffer(string: "two\r\n"))
        #expect(second != nil && counter.reads == 3, "the decision and the read's end asked \(counter.reads - 2) reads, not one")
        _ = try channel.finish(acceptAlreadyClosed: true)
    }

    /// The gate: the handler reads while the queue is under its limit and the scenario has not
    /// paused it; it stops at the high-water mark and says so, and reads again once an expect
    /// takes the bytes.
    @Test func theHandlerReadsUnderItsLimitAndWhileNotPaused() throws {
        let (counter, handler, channel) = try connected()
        #expect(counter.reads == 1, "a read when the channel becomes active")
        try channel.writeInbound(ByteBuffer(repeating: 0x61, count: 1000))
        #expect(counter.reads == 2, "a read when a read completes")
        handler.setPaused(true)
        channel.pipeline.syncOperations.fireChannelReadComplete()
        #expect(counter.reads == 2 && handler.isPaused && handler.pausedByScenario)
        handler.setPaused(false)
        #expect(counter.reads == 3 && handler.gate == .open)
        try channel.writeInbound(ByteBuffer(repeating: 0x61, count: ExpectQueue.highWaterMark))
        #expect(counter.reads == 3 && handler.stoppedAtHighWater, "it read on past its high-water mark")
        var decided: MatchOutcome?
        handler.expect(DecidedCallback(matcher(.byteCount(1000 + ExpectQueue.highWaterMark, equals: nil))) { decided = $0 },
                       timeout: .seconds(1), on: channel.embeddedEventLoop)
        #expect(decided != nil && counter.reads == 4, "the expect took the bytes: reading goes on")
        try channel.writeInbound(ByteBuffer(string: "x"))
        #expect(counter.reads == 5)
        channel.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        channel.pipeline.syncOperations.fireChannelReadComplete()
        #expect(handler.end == .eof && counter.reads == 5, "a read after the stream's end")
        _ = try channel.finish(acceptAlreadyClosed: true)
    }

    /// A hold for the capture lasts until the capture is under its resume mark, not merely
    /// under its hold mark (hysteresis): at 70% full it still holds, at 50% it reads.
    @Test func aHoldForTheCaptureLastsUntilItsResumeMark() throws {
        let capture = ScriptedCapture(fill: 0.95)
        let (counter, handler, channel) = try connected(InboundHandler(captureHold: CaptureHold(capture)))
        #expect(counter.reads == 0, "it read with the capture 95% full")
        capture.setFill(0.7)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(3))
        #expect(counter.reads == 0, "it read before the capture was under its resume mark")
        capture.setFill(0.5)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(3))
        #expect(counter.reads == 1 && handler.gate == .open)
        _ = try channel.finish(acceptAlreadyClosed: true)
    }

    /// The high-water mark is where reading stops: at exactly that many unread bytes the
    /// handler asks for no more.
    @Test func theHandlerStopsAtExactlyItsHighWaterMark() throws {
        let (counter, handler, channel) = try connected()
        try channel.writeInbound(ByteBuffer(repeating: 0x61, count: ExpectQueue.highWaterMark - 1))
        #expect(counter.reads == 2 && !handler.stoppedAtHighWater, "one byte under the mark, it reads on")
        try channel.writeInbound(ByteBuffer(repeating: 0x61, count: 1))
        #expect(counter.reads == 2 && handler.stoppedAtHighWater, "at the mark, it stops")
        _ = try channel.finish(acceptAlreadyClosed: true)
    }

    /// After an expect that timed out (here `expect nothing`, whose timeout is its success), the
    /// next one times out at its own deadline: the fired timer is not taken for a live one.
    @Test func anExpectAfterATimedOutOneTimesOutToo() {
        let loop = EmbeddedEventLoop()
        let queue = ExpectQueue()
        let silence = expect(.nothing, within: .seconds(1), on: queue, loop)
        loop.advanceTime(by: .seconds(1))
        #expect(matched(silence.outcome))
        let never = expect(.line(.any), within: .seconds(2), on: queue, loop)
        loop.advanceTime(by: .seconds(2))
        #expect(never.outcome == .timedOut(waitingFor: "a line", pending: []))
    }

    /// Stopping the timer when the connection goes away keeps it while an expect waits, and
    /// when idle forgets it, so a later expect sets its own.
    @Test func stoppingTheTimerSparesAWaitingExpect() {
        let loop = EmbeddedEventLoop()
        let queue = ExpectQueue()
        let waiting = expect(.line(.any), within: .seconds(1), on: queue, loop)
        queue.stopTimerIfIdle()
        loop.advanceTime(by: .seconds(1))
        #expect(waiting.outcome == .timedOut(waitingFor: "a line", pending: []), "the waiting expect lost its timer")
        let answered = expect(.line(.any), within: .seconds(1), on: queue, loop)
        queue.receive(ByteBuffer(string: "x\r\n"))
        #expect(matched(answered.outcome), "its timer stays set, for its deadline")
        queue.stopTimerIfIdle()
        let later = expect(.line(.any), within: .seconds(5), on: queue, loop)
        loop.advanceTime(by: .seconds(5))
        #expect(later.outcome == .timedOut(waitingFor: "a line", pending: []), "a stopped timer was taken for a live one")
    }

    /// Bytes read off the socket before the handler had it (a client's TLS hello right after the
    /// answer to STARTTLS) count as received: the next expect reads them, and a failure's last
    /// bytes show them.
    @Test func preloadedBytesAreReceivedAndKeptForFailures() {
        let loop = EmbeddedEventLoop()
        let queue = ExpectQueue()
        queue.preload(Array("early\r\n".utf8))
        #expect(queue.recent.bytes == Array("early\r\n".utf8) && queue.recent.total == 7)
        let verdict = expect(.line(.exact(BytePattern(Array("early".utf8)))), within: .seconds(1), on: queue, loop)
        #expect(matched(verdict.outcome))
    }

    /// Ends the queue's stream on the first write, as a write that fails at once closes the
    /// channel (the peer's RST already in) and the handler's channelInactive ends the stream.
    private final class EndOnWrite: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = ByteBuffer
        let queue: ExpectQueue
        init(_ queue: ExpectQueue) { self.queue = queue }
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            queue.finish(.reset)
            promise?.fail(ChannelError.ioOnClosedChannel)
        }
    }

    /// An expect that writes while it reads (a WebSocket close answered) and whose write ends
    /// the stream at once, as aiohttp's reset did in Autobahn's 5.10, is decided once, and the
    /// end is kept for the next expect; the queue never touches its bytes twice at once (which
    /// trapped: "Simultaneous accesses").
    @Test(arguments: [false, true]) func aWriteThatEndsTheStreamFromInsideAnExpectIsTakenAfterIt(alreadyThere: Bool) throws {
        let loop = EmbeddedEventLoop()
        let queue = ExpectQueue()
        let channel = EmbeddedChannel(handler: EndOnWrite(queue), loop: loop)
        let session = WebSocketSession(role: .client, channel: channel, maxMessage: 1024)
        let close = ByteBuffer(bytes: [0x88, 0x02, 0x03, 0xEA])
        if alreadyThere { queue.receive(close) }
        let verdict = Verdict()
        queue.expect(DecidedCallback(ExpectationMatcher(.webSocket(.close(codes: [1002], orNone: false, reason: nil), session), framing: lines)) { outcome in
            #expect(verdict.outcome == nil, "decided twice")
            verdict.outcome = outcome
        }, timeout: .seconds(1), on: loop)
        if !alreadyThere { queue.receive(close) }
        #expect(matched(verdict.outcome), "\(String(describing: verdict.outcome))")
        #expect(queue.end == .reset)
        let next = expect(.line(.any), within: .seconds(1), on: queue, loop)
        #expect(next.outcome != nil && !matched(next.outcome), "the end decides the next expect at once")
    }
}
