import NIOCore
import ProbeFraming
import ProbeScript
import Testing

/// The length-prefixed codec on its own: every width and byte order, head bytes, an adjusted
/// length and varints, every way a stream can arrive in two reads, the max-message boundary,
/// and hostile headers that must cost nothing.
@Suite struct LengthPrefixFramingTests {
    static let widths = LengthHeader.widths.flatMap { [LengthHeader(width: $0), LengthHeader(width: $0, bigEndian: false)] }
    /// PostgreSQL's, a TLS record's, protobuf's and MQTT's headers beside the plain widths.
    static let headers = widths + [LengthHeader(width: 4, after: 1, adjust: -4), LengthHeader(width: 2, after: 3),
                                   LengthHeader(field: .varint), LengthHeader(field: .varint, after: 1)]

    /// Every message `framing` takes from `buffer` as it stands.
    private func drain(_ framing: inout LengthPrefixFraming, _ buffer: inout ByteBuffer, end: InboundEnd? = nil) -> [FramedMessage] {
        var taken: [FramedMessage] = []
        while let next = framing.nextMessage(from: &buffer, end: end) {
            taken.append(next)
            if case .failure = next { break }
        }
        return taken
    }

    @Test(arguments: headers)
    func aStreamCutAnywhereGivesTheSameMessages(header: LengthHeader) {
        let framing = LengthPrefixFraming(header: header, maxMessage: 300)
        let payloads: [[UInt8]] = [[], [7], Array(repeating: 0xAB, count: 255)]
        let stream = payloads.flatMap { framing.frame($0) }
        #expect(stream.count == payloads.reduce(0) { $0 + header.encode($1.count)!.count + $1.count })
        for cut in 0...stream.count {
            var reader = framing
            var buffer = ByteBuffer(bytes: stream[..<cut])
            var taken = drain(&reader, &buffer)
            buffer.writeBytes(stream[cut...])
            taken += drain(&reader, &buffer)
            #expect(taken == payloads.map { .message($0) }, "cut at \(cut)")
            #expect(buffer.readableBytes == 0)
        }
    }

    @Test(arguments: widths)
    func theHeaderIsWrittenInItsByteOrder(header: LengthHeader) {
        guard case .fixed(let width, let bigEndian) = header.field else { return }
        let framed = LengthPrefixFraming(header: header, maxMessage: 300).frame(Array(repeating: 1, count: 258))
        let expected: [UInt8] = width == 1 ? [255] : Array(repeating: 0, count: width - 2) + [1, 2]
        #expect(Array(framed.prefix(width)) == (bigEndian ? expected : expected.reversed()))
    }

    @Test(arguments: headers)
    func maxMessageIsInclusive(header: LengthHeader) {
        let framing = LengthPrefixFraming(header: header, maxMessage: 5)
        var atLimit = framing
        var whole = ByteBuffer(bytes: framing.frame([1, 2, 3, 4, 5]))
        #expect(drain(&atLimit, &whole) == [.message([1, 2, 3, 4, 5])])
        var overLimit = framing
        var tooLong = ByteBuffer(bytes: header.encode(6)!)
        guard case .failure(let why)? = drain(&overLimit, &tooLong).first else {
            Issue.record("a header over max-message was not refused at once")
            return
        }
        #expect(why.contains("announces 6 bytes, over max-message 5"))
    }

    @Test func aHostileHeaderFailsWithoutWaitingForItsPayload() {
        var framing = LengthPrefixFraming(header: LengthHeader(width: 8), maxMessage: 1 << 20)
        var buffer = ByteBuffer(bytes: [0x80, 0, 0, 0, 0, 0, 0, 0])
        guard case .failure(let why)? = framing.nextMessage(from: &buffer, end: nil) else {
            Issue.record("a header of 2^63 bytes was not refused")
            return
        }
        #expect(why.contains("9223372036854775808 bytes"))
        #expect(why.contains(#"hex"80 00 00 00 00 00 00 00""#))
    }

    /// The hostile peers of the contract: each header fails as it arrives, naming its bytes.
    @Test func headersThatCannotBeFailAsTheyArrive() {
        var mqtt = LengthPrefixFraming(header: LengthHeader(field: .varint, after: 1), maxMessage: 1 << 20)
        var fiveBytes = ByteBuffer(bytes: [0x30, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(mqtt.nextMessage(from: &fiveBytes, end: nil) == .failure(#"a varint length longer than 4 bytes: hex"30 ff ff ff ff""#))
        var postgres = LengthPrefixFraming(header: LengthHeader(width: 4, after: 1, adjust: -4), maxMessage: 1 << 20)
        var negative = ByteBuffer(bytes: [0x5A, 0, 0, 0, 2])
        #expect(postgres.nextMessage(from: &negative, end: nil) == .failure(#"the length field hex"00 00 00 02" holds 2, below zero after adjust -4"#))
        var silent = ByteBuffer(bytes: [0x30, 0x85])
        #expect(mqtt.nextMessage(from: &silent, end: nil) == nil, "half a varint waits for the rest")
        #expect(mqtt.nextMessage(from: &silent, end: .eof)
                == .failure(#"the peer closed the connection (FIN) after 2 bytes of an unfinished length header (a varint length after 1 head byte): hex"30 85""#))
    }

    @Test func aStreamThatEndsMidMessageSaysWhere() {
        var header = LengthPrefixFraming(header: LengthHeader(width: 4), maxMessage: 100)
        var partHeader = ByteBuffer(bytes: [0, 0])
        #expect(header.nextMessage(from: &partHeader, end: nil) == nil)
        #expect(header.nextMessage(from: &partHeader, end: .eof)
                == .failure(#"the peer closed the connection (FIN) after 2 of the 4 bytes of a length header: hex"00 00""#))
        var payload = LengthPrefixFraming(header: LengthHeader(width: 2), maxMessage: 100)
        var partPayload = ByteBuffer(bytes: [0, 5, 1, 2])
        #expect(payload.nextMessage(from: &partPayload, end: nil) == nil)
        #expect(payload.nextMessage(from: &partPayload, end: .reset) == .failure("the peer reset the connection (RST) after 2 of the 5 bytes the length header announced"))
        var empty = ByteBuffer()
        #expect(payload.nextMessage(from: &empty, end: .eof) == .failure("expected a 2-byte big-endian length, but the peer closed the connection (FIN)"))
    }

    @Test func aPayloadTooLongForItsHeaderIsSentWithTheLargestLength() {
        let framed = LengthPrefixFraming(header: LengthHeader(width: 1), maxMessage: 1000).frame(Array(repeating: 9, count: 300))
        #expect(framed.first == 255)
        #expect(framed.count == 301)
    }

    @Test func misframingSaysHowMuchOfAnAnnouncedMessageCame() {
        let framing = LengthPrefixFraming(header: LengthHeader(width: 2), maxMessage: 100)
        #expect(framing.misframing([0, 9, 1, 2]) == "a length header announced 9 bytes and 2 have arrived: the message lacks 7")
        #expect(framing.misframing([0, 2, 1, 2]) == nil)
        #expect(framing.misframing([0]) == nil)
    }
}
