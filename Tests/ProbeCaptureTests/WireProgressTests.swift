import ProbeScript
import Testing
@testable import ProbeCapture

/// A check that carries on from where its last run left off must judge exactly as one that
/// reads the whole stream, and must never carry on over a trace it did not judge.
@Suite struct WireProgressTests {
    static let checks: [WireCheck] = [.terminator(.crlf), .terminator(.lf), .linesUnsplit(terminator: [13, 10])]

    /// Pieces as the peer sends them: whole lines, lines in two pieces, and then a fault.
    static let conversations: [(String, [String])] = [
        ("all good", ["a\r\n", "bc\r\nd", "e\r\n", "f\r\ng\r\n", "h", "\r\n"]),
        ("a bare LF late", ["a\r\n", "b\r\n", "c\r\n", "d\n", "e\r\n"]),
        ("a bare CR late", ["a\r\n", "b\r\n", "c\rx\r\n", "e\r\n"]),
        ("a line split late", ["a\r\n", "b\r\n", "c\r\n", "dd", "d\r\n", "e\r\n"]),
        ("LF lines", ["a\n", "b\n", "c\r\n", "d\n"]),
        ("a bare LF first in a piece", ["a\r\n", "b\r\n", "\nc\r\n"]),
    ]

    static func describe(_ verdict: WireVerdict) -> String {
        "\(verdict.passed) \(verdict.summary) \(verdict.evidence.map(\.sequence))"
    }

    @Test(arguments: conversations.map(\.0))
    func carryingOnJudgesAsReadingEverything(_ name: String) {
        let pieces = Self.conversations.first { $0.0 == name }!.1
        let all = PacketBuilder().serverSends(pieces)
        for check in Self.checks {
            var grown = ConnectionTrace(segments: [], probePort: 40000, peerPort: 7000)
            var progress: WireProgress?
            for segment in all {
                grown.add([segment])
                let carried = WireEvaluator.evaluate(check, on: grown.fromPeer, progress: &progress)
                let fresh = WireEvaluator.evaluate(check, on: ConnectionTrace(segments: grown.segments, probePort: 40000, peerPort: 7000).fromPeer)
                #expect(Self.describe(carried) == Self.describe(fresh), "\(check) after \(grown.segments.count) segments")
                if !carried.passed { progress = nil }
            }
        }
    }

    /// A passing check leaves how far it got, so the next one on the grown trace reads only what is new.
    @Test(arguments: checks.map { "\($0)" })
    func aPassingCheckLeavesItsProgressAtTheLastLine(_ name: String) {
        let check = Self.checks.first { "\($0)" == name }!
        var pieces = ["a\r\n", "b\r\n", "c"]
        if case .terminator(.lf) = check { pieces = ["a\n", "b\n", "c"] }
        let trace = ConnectionTrace(segments: PacketBuilder().serverSends(pieces), probePort: 40000, peerPort: 7000).fromPeer
        var progress: WireProgress?
        _ = WireEvaluator.evaluate(check, on: trace, progress: &progress)
        let whole = pieces.dropLast().joined().utf8.count
        if case .terminator = check {
            #expect(progress == nil, "an unterminated tail fails the terminator check, which leaves no progress")
        } else {
            #expect(progress?.end == whole && progress?.lines == 2 && progress?.traceID == trace.id, "\(String(describing: progress))")
        }
        let ended = ConnectionTrace(segments: PacketBuilder().serverSends(Array(pieces.dropLast())), probePort: 40000, peerPort: 7000).fromPeer
        progress = nil
        #expect(WireEvaluator.evaluate(check, on: ended, progress: &progress).passed)
        #expect(progress?.end == whole && progress?.lines == 2 && progress?.traceID == ended.id, "\(check): \(String(describing: progress))")
    }

    @Test func progressIsNotTakenToAnotherTrace() {
        let long = ConnectionTrace(segments: PacketBuilder().serverSends(["a\r\n", "b\r\n", "c\r\n"]), probePort: 40000, peerPort: 7000).fromPeer
        var progress: WireProgress?
        #expect(WireEvaluator.evaluate(.terminator(.crlf), on: long, progress: &progress).passed)
        #expect(progress != nil)
        // Another trace, longer, whose fault lies within the stretch the first one passed.
        let other = ConnectionTrace(segments: PacketBuilder().serverSends(["a\n", "b\r\n", "c\r\n", "d\r\n"]), probePort: 40000, peerPort: 7000).fromPeer
        let verdict = WireEvaluator.evaluate(.terminator(.crlf), on: other, progress: &progress)
        #expect(!verdict.passed && verdict.summary.contains("bare LF (no CR before it) at stream offset 1"), "\(verdict.summary)")
        #expect(progress == nil)
    }

    @Test func aRebuiltTraceIsJudgedAfresh() {
        let builder = PacketBuilder()
        let first = builder.serverSends(["ab\r\n", "cd\r\n"])
        var trace = ConnectionTrace(segments: Array(first.prefix(5)), probePort: 40000, peerPort: 7000)
        var progress: WireProgress?
        #expect(WireEvaluator.evaluate(.linesUnsplit(terminator: [13, 10]), on: trace.fromPeer, progress: &progress).passed)
        let before = trace.fromPeer.id
        // A segment from before the traced ones (a retransmission with other boundaries) makes
        // the trace rebuild itself.
        trace.add([builder.packet(fromClient: false, sequence: 5001, flags: .ack, payload: Array("ab".utf8), at: 0.5)].compactMap(PacketDecoder.segment))
        #expect(trace.fromPeer.id != before)
        let carried = WireEvaluator.evaluate(.linesUnsplit(terminator: [13, 10]), on: trace.fromPeer, progress: &progress)
        let fresh = WireEvaluator.evaluate(.linesUnsplit(terminator: [13, 10]), on: ConnectionTrace(segments: trace.segments, probePort: 40000, peerPort: 7000).fromPeer)
        #expect(Self.describe(carried) == Self.describe(fresh))
    }
}
