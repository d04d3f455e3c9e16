import NIOCore

/// Lines ended by a terminator (`set terminator`), at most `maxLine` bytes each (`set
/// max-line`): the framing of CRLF protocols, and the first `Framing`.
struct TerminatedLineFraming: Framing {
    let terminator: [UInt8]
    let maxLine: Int
    private var search = ByteSearch()

    init(terminator: [UInt8], maxLine: Int) {
        self.terminator = terminator
        self.maxLine = maxLine
    }

    var unit: String { "line" }

    func frame(_ message: consuming [UInt8]) -> [UInt8] {
        message += terminator
        return message
    }

    var bufferNeeded: Int { maxLine + terminator.count }

    mutating func nextMessage(from buffer: inout ByteBuffer, end: InboundEnd?) -> FramedMessage? {
        if let index = search.find(terminator, in: buffer, limit: maxLine + terminator.count) {
            let line = buffer.readBytes(length: index)!
            buffer.moveReaderIndex(forwardBy: terminator.count)
            return .message(line)
        }
        if buffer.readableBytes >= maxLine + terminator.count {
            return .failure("no line terminator \(ByteDiff.preview(terminator)) within max-line \(maxLine) bytes; "
                            + "received \(ByteDiff.preview(buffer.readableBytesView.prefix(64)))… (\(buffer.readableBytes) bytes buffered)")
        }
        guard let end, buffer.readableBytes > 0 else { return nil }
        let misframed = misframing(Array(buffer.readableBytesView.prefix(200))).map { "; " + $0 } ?? ""
        return .failure("\(end) in the middle of a line: received \(ByteDiff.preview(buffer.readableBytesView)) without a terminator \(ByteDiff.preview(terminator))" + misframed)
    }

    func misframing(_ pending: [UInt8]) -> String? {
        let name = terminator == [13, 10] ? "CRLF" : terminator == [10] ? "LF" : terminator == [13] ? "CR" : ByteDiff.preview(terminator)
        for index in pending.indices {
            let next = index + 1 < pending.count ? pending[index + 1] : nil
            let ending: [UInt8]
            switch (pending[index], next) {
            case (13, 10): ending = [13, 10]
            case (10, _): ending = [10]
            case (13, .some): ending = [13]
            default: continue
            }
            // A line did end there when the terminator starts where this ending does (CR in CRLF).
            guard !pending[index...].starts(with: terminator) else { return nil }
            let shown = ending == [13, 10] ? "CRLF" : ending == [10] ? "a bare LF" : "a bare CR"
            return "received a line ending in \(shown) at offset \(index); the terminator is \(name)"
        }
        return nil
    }
}
