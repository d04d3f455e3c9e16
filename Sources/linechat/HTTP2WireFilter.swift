import NIOCore
import NIOPosix
import ProbeFraming

/// The bytes between the socket and NIOHTTP2 in `linechat serve --http2`. It hands NIOHTTP2
/// one frame a read, so each request is answered before the next frame is read: NIOHTTP2 answers
/// a HEADERS on a stream it has not answered yet with RST_STREAM PROTOCOL_ERROR, on one it has
/// with GOAWAY, and frames that came in one segment would make that depend on the timing. It
/// closes the connection once an error GOAWAY is written (RFC 9113 §5.4.1), and plants the
/// quirks asked for: inbound frames dropped before NIOHTTP2 sees them (a bug that takes them
/// silently), an error GOAWAY rewritten or left out.
final class HTTP2WireFilter: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private static let prefaceLength = 24
    private static let largestWindow = Int(Int32.max)

    private let quirks: HTTP2Quirks
    /// Inbound bytes not yet a whole frame.
    private var pending: ByteBuffer?
    private var prefaceLeft = prefaceLength
    /// Each window as the client's WINDOW_UPDATEs raised it from 65,535 (data sent not counted).
    private var windows: [Int: Int] = [:]
    /// The streams whose request has ended (END_STREAM came).
    private var ended: Set<Int> = []
    /// Outbound payload bytes of a frame already begun, passed on as they are.
    private var outboundPayloadLeft = 0

    init(quirks: HTTP2Quirks) {
        self.quirks = quirks
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if prefaceLeft > 0 {
            let preface = buffer.readSlice(length: min(prefaceLeft, buffer.readableBytes))!
            prefaceLeft -= preface.readableBytes
            context.fireChannelRead(wrapInboundOut(preface))
        }
        pending.setOrWriteBuffer(&buffer)
        while var unread = pending, case .frame(let frame) = HTTP2Frame.read(from: &unread, maxPayload: 1 << 24) {
            pending = unread
            guard keeps(frame) else { continue }
            context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: frame.encoded())))
            context.fireChannelReadComplete()
        }
    }

    /// Each frame's read was completed as it went.
    func channelReadComplete(context: ChannelHandlerContext) {}

    /// Whether NIOHTTP2 sees an inbound frame: the inbound quirks drop the ones they take silently.
    private func keeps(_ frame: HTTP2Frame) -> Bool {
        switch frame.type {
        case 0x6 where quirks.contains(.ignoresPings): return frame.has(0x1)
        case 0x0 where frame.stream == 0 && quirks.contains(.acceptsDataOnStreamZero): return false
        case 0x8 where quirks.contains(.acceptsWindowOverflow):
            guard let increment = frame.windowIncrement else { break }
            let window = windows[frame.stream, default: 65_535] + increment
            guard window <= Self.largestWindow else { return false }
            windows[frame.stream] = window
        case 0x1 where quirks.contains(.acceptsHeadersOnClosedStreams) && ended.contains(frame.stream): return false
        default: break
        }
        if [0x0, 0x1].contains(frame.type), frame.has(0x1) { ended.insert(frame.stream) }
        return true
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .byteBuffer(let written) = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        // Offsets from 0, as in the buffer `cutting` makes.
        var buffer = written.slice()
        var goaway = false
        var offset = 0
        while offset < buffer.writerIndex {
            if outboundPayloadLeft > 0 {
                let taken = min(outboundPayloadLeft, buffer.writerIndex - offset)
                (outboundPayloadLeft, offset) = (outboundPayloadLeft - taken, offset + taken)
                continue
            }
            // NIOHTTP2 writes each frame's header whole, and a GOAWAY's payload with it.
            guard let header = buffer.getBytes(at: offset, length: HTTP2Frame.headerSize) else { break }
            let length = HTTP2Frame.payloadLength(ofHeader: header)
            let code = buffer.getInteger(at: offset + HTTP2Frame.headerSize + 4, as: UInt32.self)
            if header[3] == 0x7, let code, code != 0 {
                goaway = true
                if quirks.contains(.resetsWithoutGoaway) {
                    buffer = cutting(offset..<offset + HTTP2Frame.headerSize + length, from: buffer, context: context)
                    continue
                }
                if quirks.contains(.wrongGoawayCode) { buffer.setInteger(UInt32(0x2), at: offset + HTTP2Frame.headerSize + 4) }
            }
            offset += HTTP2Frame.headerSize
            outboundPayloadLeft = length
        }
        let done = promise ?? context.eventLoop.makePromise()
        context.write(wrapOutboundOut(.byteBuffer(buffer)), promise: done)
        guard goaway else { return }
        context.flush()
        if quirks.contains(.resetsWithoutGoaway) {
            // SO_LINGER 0: the close that follows resets the connection.
            _ = (context.channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
        }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        done.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// `buffer` (read from 0) without the bytes at `range`.
    private func cutting(_ range: Range<Int>, from buffer: ByteBuffer, context: ChannelHandlerContext) -> ByteBuffer {
        var rest = context.channel.allocator.buffer(capacity: buffer.readableBytes)
        rest.writeImmutableBuffer(buffer.getSlice(at: 0, length: range.lowerBound)!)
        rest.writeImmutableBuffer(buffer.getSlice(at: range.upperBound, length: buffer.writerIndex - range.upperBound)!)
        return rest
    }
}
