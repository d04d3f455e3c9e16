import Testing
import Transports

@Suite struct LineFramingTests {
    static let sample = Array("iam:Luke\r\nmsg:hello there\r\nping\r\n\r\nmsg:bare lf\nquit\r\n".utf8)
    static let expected = ["iam:Luke", "msg:hello there", "ping", "", "msg:bare lf", "quit"]

    private func unframe(_ pieces: [ArraySlice<UInt8>]) throws -> [String] {
        var framing = LineFraming()
        return try pieces.flatMap { try framing.append($0) }
    }

    @Test func framingAddsCRLF() {
        #expect(LineFraming.frame("ping") == Array("ping\r\n".utf8))
    }

    @Test func everySplitOfTheStreamGivesTheSameLines() throws {
        let bytes = Self.sample
        for cut in 1..<bytes.count {
            #expect(try unframe([bytes[..<cut], bytes[cut...]]) == Self.expected, "split at \(cut)")
        }
        for first in 1..<(bytes.count - 1) {
            for second in (first + 1)..<bytes.count where (first + second) % 3 == 0 {
                #expect(try unframe([bytes[..<first], bytes[first..<second], bytes[second...]]) == Self.expected,
                        "split at \(first), \(second)")
            }
        }
        #expect(try unframe(bytes.map { [$0][...] }) == Self.expected, "one byte at a time")
    }

    @Test func coalescedLinesComeOutSeparately() throws {
        var framing = LineFraming()
        #expect(try framing.append(Array("a\r\nb\r\nc".utf8)) == ["a", "b"])
        #expect(try framing.append(Array("\r\n".utf8)) == ["c"])
    }

    @Test func crAndLFEdgeCases() throws {
        var framing = LineFraming()
        #expect(try framing.append(Array("x\r".utf8)) == [])
        #expect(try framing.append(Array("\n".utf8)) == ["x"], "a CR at the end of one read and its LF in the next")
        #expect(try framing.append(Array("a\rb\r\n".utf8)) == ["a\rb"], "a CR inside a line is data")
        #expect(try framing.append(Array("\n".utf8)) == [""], "a lone LF is an empty line")
        #expect(try framing.append(Array("tail".utf8)) == [])
        #expect(framing.finish() == [], "a half line at the end is dropped, never a message")
    }

    @Test func theMaximumLengthStopsUnboundedBuffering() throws {
        var framing = LineFraming(maximumLength: 8)
        #expect(try framing.append(Array("12345678\r\n".utf8)) == ["12345678"], "exactly the maximum is fine")
        #expect(try framing.append(Array("12345678\r".utf8)) == [], "the CR may still be the terminator")
        #expect(try framing.append(Array("\n".utf8)) == ["12345678"])
        #expect(throws: LineFraming.Failure.lineTooLong(limit: 8)) { try framing.append(Array("123456789".utf8)) }
        var standard = LineFraming()
        #expect(standard.maximumLength == 1024)
        #expect(throws: LineFraming.Failure.self) { try standard.append([UInt8](repeating: 120, count: 1025)) }
    }
}
