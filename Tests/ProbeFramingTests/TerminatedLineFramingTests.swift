import NIOCore
@testable import ProbeFraming
import ProbeScript
import Testing

/// The line framing on its own: what `send line` puts on the wire and how lines are taken off it.
struct TerminatedLineFramingTests {
    @Test func aLineGoesOutWithItsTerminator() {
        #expect(TerminatedLineFraming(terminator: [13, 10], maxLine: 8).frame(Array("hi".utf8)) == Array("hi\r\n".utf8))
        #expect(TerminatedLineFraming(terminator: [0], maxLine: 8).frame([]) == [0])
    }

    /// The wire checks' line cutter finds the lines a connection's reader takes, from any
    /// offset, for terminators of one and two bytes and streams of stray CRs, LFs and a tail.
    @Test(arguments: [[13, 10], [10], [13], Array("||".utf8)])
    func theWiresCutterFindsTheLinesTheReaderTakes(_ terminator: [UInt8]) {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [13, 10, 124, 97, 98]
        for length in [0, 1, 2, 3, 17, 64, 300] {
            let stream = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            for start in Set([0, 1, length / 2, length]) where start <= length {
                var cut: [Range<Int>] = []
                TerminatedLineFraming.forEachLine(in: stream, from: start, terminator: terminator) { cut.append($0); return true }
                let read = TerminatedLineFraming(terminator: terminator, maxLine: stream.count + 1).messages(in: Array(stream[start...]))
                #expect(cut == read.map { $0.range.lowerBound + start..<$0.range.upperBound + start }, "\(stream) from \(start)")
            }
        }
        var first: [Range<Int>] = []
        TerminatedLineFraming.forEachLine(in: Array("a\r\nb\r\nc\r\n".utf8), terminator: [13, 10]) { first.append($0); return first.count < 2 }
        #expect(first == [0..<3, 3..<6], "the cutter stops when told")
    }

    /// One framing reads every line of a stream that arrives cut at any two places.
    @Test(arguments: [[13, 10], [10], Array("||".utf8)])
    func everyCutOfAStreamGivesTheSameLines(_ terminator: [UInt8]) {
        let texts = ["a", "", "bcd", "e\rf"]
        let stream = texts.flatMap { Array($0.utf8) + terminator }
        for first in 0...stream.count {
            for second in first...stream.count {
                var framing = TerminatedLineFraming(terminator: terminator, maxLine: 16)
                var buffer = ByteBuffer()
                var found: [String] = []
                for piece in [stream[..<first], stream[first..<second], stream[second...]] {
                    buffer.writeBytes(piece)
                    while case .message(let line)? = framing.nextMessage(from: &buffer, end: nil) {
                        found.append(String(decoding: line, as: UTF8.self))
                    }
                }
                #expect(found == texts, "cut at \(first) and \(second)")
                if found != texts { return }
                #expect(framing.nextMessage(from: &buffer, end: .eof) == nil, "a stream that ends between lines leaves no failure to the framing")
            }
        }
    }

    /// A line that is the bytes an expect waits for comes back as the expect's own array (an
    /// expect that matches copies nothing); any other line is a copy of what came. The same
    /// for a length-prefixed message's payload.
    @Test func aLineEqualToTheExpectedIsTheExpectedArrayItself() {
        let expected = Array("ping 7".utf8)
        var lines = TerminatedLineFraming(terminator: [13, 10], maxLine: 16)
        var buffer = ByteBuffer(bytes: Array("ping 7\r\nping 8\r\nping 7\r\n".utf8))
        for (want, shared) in [("ping 7", true), ("ping 8", false)] {
            guard case .message(let line)? = lines.nextMessage(from: &buffer, end: nil, sharing: expected) else {
                Issue.record("no line for \(want)")
                return
            }
            #expect(line == Array(want.utf8))
            #expect(Self.sameStorage(line, expected) == shared, "\(want)")
        }
        guard case .message(let copied)? = lines.nextMessage(from: &buffer, end: nil) else {
            Issue.record("no third line")
            return
        }
        #expect(copied == expected && !Self.sameStorage(copied, expected), "without an expected line, a copy")

        var messages = LengthPrefixFraming(header: LengthHeader(width: 1), maxMessage: 16)
        var framed = ByteBuffer(bytes: [6] + expected)
        guard case .message(let payload)? = messages.nextMessage(from: &framed, end: nil, sharing: expected) else {
            Issue.record("no message")
            return
        }
        #expect(Self.sameStorage(payload, expected))

        // An empty line against an empty expectation, and a line that differs at its first byte.
        var edges = ByteBuffer(bytes: Array("\r\nqing 7\r\n".utf8))
        let empty: [UInt8] = []
        guard case .message(let blank)? = lines.nextMessage(from: &edges, end: nil, sharing: empty),
              case .message(let other)? = lines.nextMessage(from: &edges, end: nil, sharing: expected) else {
            Issue.record("no lines at the edges")
            return
        }
        #expect(blank.isEmpty)
        #expect(other == Array("qing 7".utf8) && !Self.sameStorage(other, expected))
    }

    private static func sameStorage(_ one: [UInt8], _ other: [UInt8]) -> Bool {
        one.withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    @Test func aLineOverMaxLineAndAStreamEndingMidLineFail() {
        var framing = TerminatedLineFraming(terminator: [13, 10], maxLine: 4)
        #expect(framing.bufferNeeded == 6)
        var buffer = ByteBuffer(bytes: Array("abcde".utf8))
        #expect(framing.nextMessage(from: &buffer, end: nil) == nil, "5 bytes may still be 4 and a CRLF split after its CR")
        buffer.writeBytes(Array("f".utf8))
        guard case .failure(let tooLong)? = framing.nextMessage(from: &buffer, end: nil) else {
            Issue.record("a line over max-line must fail")
            return
        }
        #expect(tooLong.hasPrefix("no line terminator \"\\r\\n\" within max-line 4 bytes"), "\(tooLong)")

        var cut = ByteBuffer(bytes: Array("ok\n".utf8))
        guard case .failure(let midLine)? = framing.nextMessage(from: &cut, end: .eof) else {
            Issue.record("a stream that ends mid-line must fail")
            return
        }
        #expect(midLine.contains("in the middle of a line") && midLine.hasSuffix("received a line ending in a bare LF at offset 2; the terminator is CRLF"),
                "\(midLine)")
    }
}
