import NIOCore
import ProbeScript

/// Lines ended by a terminator (`set terminator`), at most `maxLine` bytes each (`set
/// max-line`): the framing of CRLF protocols, and the first `Framing`.
package struct TerminatedLineFraming: Framing {
    package let terminator: [UInt8]
    package let maxLine: Int
    private var search = ByteSearch()

    package init(terminator: [UInt8], maxLine: Int) {
        self.terminator = terminator
        self.maxLine = maxLine
    }

    /// Lines have no header.
    package var lastHeader: FramedHeader? { nil }

    package var unit: String { "line" }

    package func frame(_ message: consuming [UInt8]) -> [UInt8] {
        message += terminator
        return message
    }

    package var bufferNeeded: Int { maxLine + terminator.count }

    /// Each line of `stream` from `offset` on, its terminator included, in order, until `body`
    /// returns false; bytes after the last terminator are no line. The wire checks' cutter: it
    /// searches as a connection's reader does (`ByteSearch`), without copying a line.
    package static func forEachLine(in stream: [UInt8], from offset: Int = 0, terminator: [UInt8], _ body: (Range<Int>) -> Bool) {
        stream.withUnsafeBytes { bytes in
            var start = offset
            while let index = ByteSearch.firstIndex(of: terminator, in: bytes, from: start, to: bytes.count) {
                guard body(start..<(index + terminator.count)) else { return }
                start = index + terminator.count
            }
        }
    }

    package mutating func nextMessage(from buffer: inout ByteBuffer, end: InboundEnd?, sharing expected: [UInt8]?) -> FramedMessage? {
        if let index = search.find(terminator, in: buffer, limit: maxLine + terminator.count) {
            let line = buffer.readBytes(length: index, sharing: expected)
            buffer.moveReaderIndex(forwardBy: terminator.count)
            return .message(line)
        }
        if buffer.readableBytes >= maxLine + terminator.count {
            return .failure("no line terminator \(ByteEscaper.preview(terminator)) within max-line \(maxLine) bytes; "
                            + "received \(ByteEscaper.preview(buffer.readableBytesView.prefix(64)))… (\(buffer.readableBytes) bytes buffered)")
        }
        guard let end, buffer.readableBytes > 0 else { return nil }
        let misframed = misframing(Array(buffer.readableBytesView.prefix(200))).map { "; " + $0 } ?? ""
        return .failure("\(end) in the middle of a line: received \(ByteEscaper.preview(buffer.readableBytesView)) without a terminator \(ByteEscaper.preview(terminator))" + misframed)
    }

    package func misframing(_ pending: [UInt8]) -> String? {
        let name = terminator == [13, 10] ? "CRLF" : terminator == [10] ? "LF" : terminator == [13] ? "CR" : ByteEscaper.preview(terminator)
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
