import NIOCore
import ProbeFraming
import ProbeScript

/// libFuzzer entry for the framing codecs and the WebSocket frame reader. The first byte
/// picks a framing (a terminator, or a length header: width and order, varint, head, adjust)
/// and its limit, the
/// second where the stream is cut in two reads; the rest is the stream. Besides crashes and
/// hangs it checks what must hold: a stream cut anywhere gives the messages it gives whole,
/// the capture side (MessageUnits) finds those same messages, and every range a reader names
/// lies inside the stream, in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let choice = Int(bytes[0]), stream = Array(bytes[2...])
    let cut = stream.isEmpty ? 0 : Int(bytes[1]) % (stream.count + 1)
    let limit = 1 + choice >> 4 * 16
    let terminators: [[UInt8]] = [[13, 10], [10], [13], [0], Array("||".utf8)]
    // Each width in the order bit 3 picks, protobuf's and MQTT's varints, and PostgreSQL's
    // head byte and length that counts itself: eight headers, the low three bits.
    let headers = LengthHeader.widths.map { LengthHeader(width: $0, bigEndian: choice & 8 == 0) }
        + [LengthHeader(field: .varint), LengthHeader(field: .varint, after: 1), LengthHeader(width: 4, after: 1, adjust: -4)]
    let header = headers[choice % headers.count]
    let terminator = terminators[(choice >> 3) % terminators.count]

    checkCutsAgree(LengthPrefixFraming(header: header, maxMessage: limit), stream, cut)
    checkCutsAgree(TerminatedLineFraming(terminator: terminator, maxLine: limit), stream, cut)
    checkSameMessages(MessageUnits.length(header), LengthPrefixFraming(header: header, maxMessage: stream.count), stream)
    checkSameMessages(MessageUnits.lines(terminator: terminator), TerminatedLineFraming(terminator: terminator, maxLine: stream.count), stream)
    // A message fragmented around a control frame holds that frame's range: messages end in
    // order, frames do not overlap.
    checkRanges(MessageUnits.webSocket.messages(in: stream).map(\.range), stream, disjoint: false)
    checkRanges(MessageUnits.webSocketFrames.messages(in: stream).map(\.range), stream)
    let frames = WebSocketWireFrame.frames(in: stream, from: cut)
    checkRanges(frames.map(\.range), stream)
    precondition(frames.allSatisfy { $0.range.lowerBound >= cut }, "a frame before its start")
    return 0
}

/// Every message and the failure a framing takes from `stream` in one read, then at its end.
private func taken(_ framing: some Framing, _ parts: [ArraySlice<UInt8>]) -> [FramedMessage] {
    var framing = framing
    var buffer = ByteBuffer()
    var messages: [FramedMessage] = []
    for (index, part) in parts.enumerated() {
        buffer.writeBytes(part)
        let end: InboundEnd? = index == parts.count - 1 ? .eof : nil
        for _ in 0...buffer.readableBytes + 1 {
            guard let next = framing.nextMessage(from: &buffer, end: end) else { break }
            messages.append(next)
            if case .failure = next { return messages }
        }
    }
    return messages
}

private func checkCutsAgree(_ framing: some Framing, _ stream: [UInt8], _ cut: Int) {
    let whole = taken(framing, [stream[...], []])
    let halves = taken(framing, [stream[..<cut], stream[cut...]])
    // A framing may refuse a long line or message as soon as it has seen too much, so only the
    // messages before a failure must agree.
    let messages = { (all: [FramedMessage]) in all.filter { if case .message = $0 { return true } else { return false } } }
    precondition(messages(whole) == messages(halves), "a stream cut at \(cut) gave other messages")
}

private func checkSameMessages(_ units: MessageUnits, _ framing: some Framing, _ stream: [UInt8]) {
    let found = units.messages(in: stream)
    checkRanges(found.map(\.range), stream)
    let read = taken(framing, [stream[...], []]).compactMap { if case .message(let bytes) = $0 { return bytes } else { return nil } }
    precondition(found.map(\.payload) == read, "the capture side and the connection read other messages")
}

/// Each range lies inside the stream and ends after the one before; `disjoint`: starts after it too.
private func checkRanges(_ ranges: [Range<Int>], _ stream: [UInt8], disjoint: Bool = true) {
    var last = 0
    for range in ranges {
        precondition(range.lowerBound >= 0 && range.upperBound <= stream.count, "a range outside the stream")
        precondition((disjoint ? range.lowerBound : range.upperBound) >= last, "ranges out of order")
        last = range.upperBound
    }
}
