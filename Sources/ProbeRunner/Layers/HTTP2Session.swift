import NIOCore
import NIOHPACK
import ProbeFraming
import ProbeScript

/// A connection's HTTP/2 layer above the byte stream: the frames the peer sent, cut as they
/// arrive, their header blocks decoded by NIOHPACK (one decoder a connection: its dynamic table
/// follows the peer's encoder), and the background answers: a SETTINGS acked and a PING
/// answered unless `set http2 auto-ack off`. Frames wait here for the expects, which take
/// them in order. Touched on the channel's event loop only (the connection holds it loop-bound).
final class HTTP2Session {
    private let channel: Channel
    /// The longest frame payload taken: `set max-message` (16 KiB is HTTP/2's default limit,
    /// but a peer told a larger SETTINGS_MAX_FRAME_SIZE may send more).
    let maxPayload: Int
    private var decoder: HPACKDecoder
    private var frames: [HTTP2ReceivedFrame] = []
    /// HEADERS or PUSH_PROMISE and the CONTINUATIONs so far of a header block not yet ended.
    private var openBlock: [HTTP2Frame] = []
    /// What makes the stream unreadable from here on: a frame over `maxPayload`, or (as the
    /// server) a client preface that is not HTTP/2's.
    private(set) var violation: String?
    /// As the server: the client's connection preface is still to be read, before any frame.
    private var awaitsPreface: Bool
    /// The parameters of the peer's SETTINGS frames so far, the last value of each.
    private(set) var peerSettings: [Int: UInt32] = [:]
    /// Acks SETTINGS and answers PINGs (`set http2 auto-ack`).
    var autoAck = true
    /// As the server, the SETTINGS of the handshake: sent when the client's SETTINGS comes,
    /// before any answer, so that it is the server's first frame (RFC 9113 §3.4) and no data
    /// goes out before the client has spoken.
    var openingSettings: HTTP2Frame?
    /// Bytes of frames held for expects: past `heldLimit` the layer stops taking, and the
    /// socket's reads stop with the connection's unread bytes (a peer that floods frames).
    private var heldBytes = 0
    static let heldLimit = 1 << 20

    /// Told the size of each frame the session writes on its own once the socket took it.
    private let countSent: @Sendable (Int) -> Void
    /// Told each SETTINGS_HEADER_TABLE_SIZE the peer announces, as it comes.
    private let announcesTableSize: @Sendable (Int) -> Void

    /// `asServer`: the client's connection preface comes first, and is checked.
    init(channel: Channel, maxPayload: Int, asServer: Bool, countSent: @escaping @Sendable (Int) -> Void = { _ in },
         announcesTableSize: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.channel = channel
        self.countSent = countSent
        self.announcesTableSize = announcesTableSize
        self.maxPayload = maxPayload
        self.awaitsPreface = asServer
        self.decoder = HPACKDecoder(allocator: channel.allocator)
    }

    /// Cuts the whole frames out of `buffer` (the connection's unread bytes), decoding header
    /// blocks and answering SETTINGS and PINGs as they come.
    func take(from buffer: inout ByteBuffer) {
        if awaitsPreface {
            // Judged as the bytes come: an HTTP/1.1 request shorter than the preface fails at once.
            let preface = buffer.getBytes(at: buffer.readerIndex, length: min(buffer.readableBytes, HTTP2Frame.preface.count)) ?? []
            guard HTTP2Frame.preface.starts(with: preface) else {
                violation = "a connection preface that is not HTTP/2's: " + ByteEscaper.preview(preface)
                return
            }
            guard preface.count == HTTP2Frame.preface.count else { return }
            buffer.moveReaderIndex(forwardBy: preface.count)
            awaitsPreface = false
        }
        while violation == nil, heldBytes < Self.heldLimit {
            switch HTTP2Frame.read(from: &buffer, maxPayload: maxPayload) {
            case nil: return
            case .tooLong(let length, let header)?:
                violation = "a frame announcing \(length) bytes of payload, over max-message (\(maxPayload)): header " + ByteEscaper.preview(header)
            case .frame(let frame)?:
                heldBytes += frame.payload.count + HTTP2Frame.headerSize
                receive(frame)
            }
        }
    }

    private func receive(_ frame: HTTP2Frame) {
        var answered: String?
        switch frame.type {
        case 0x4 where !frame.has(0x1):
            for (id, value) in frame.settings {
                peerSettings[id] = value
                if id == 0x1 { announcesTableSize(Int(value)) }
            }
            if let opening = openingSettings {
                send(opening)
                openingSettings = nil
            }
            if autoAck {
                send(HTTP2Frame(type: 0x4, flags: 0x1, stream: 0, payload: []))
                answered = "acked"
            }
        case 0x6 where !frame.has(0x1) && autoAck:
            send(HTTP2Frame(type: 0x6, flags: 0x1, stream: 0, payload: frame.payload))
            answered = "answered"
        default: break
        }
        if !openBlock.isEmpty, frame.type != 0x9 || frame.stream != openBlock[0].stream {
            // The block never ended: its frames go to the expects undecoded.
            flushBlock(fields: nil, problem: "its header block was not ended (no CONTINUATION with END_HEADERS)")
        }
        let startsBlock = frame.type == 0x1 || frame.type == 0x5
        if startsBlock || (frame.type == 0x9 && !openBlock.isEmpty) {
            openBlock.append(frame)
            if frame.has(0x4) { decodeBlock() }
            return
        }
        frames.append(HTTP2ReceivedFrame(frame: frame, answered: answered))
    }

    /// Decodes the ended block and hands its frames on, the fields with the first.
    private func decodeBlock() {
        var block = ByteBuffer()
        for frame in openBlock {
            guard let content = frame.content else { return flushBlock(fields: nil, problem: "its padding is longer than its payload") }
            block.writeBytes(content)
        }
        do {
            let headers = try decoder.decodeHeaders(from: &block)
            flushBlock(fields: headers.map { ($0.name, $0.value) }, problem: nil)
        } catch {
            flushBlock(fields: nil, problem: "its header block does not decode (HPACK): \(error)")
        }
    }

    private func flushBlock(fields: [(name: String, value: String)]?, problem: String?) {
        for (index, frame) in openBlock.enumerated() {
            frames.append(HTTP2ReceivedFrame(frame: frame, fields: index == 0 ? fields : nil, blockProblem: index == 0 ? problem : nil))
        }
        openBlock = []
    }

    /// The next frame for an expect, taken; nil when none has come whole.
    func next() -> HTTP2ReceivedFrame? {
        guard !frames.isEmpty else { return nil }
        let frame = frames.removeFirst()
        heldBytes -= frame.frame.payload.count + HTTP2Frame.headerSize
        return frame
    }

    /// Frames cut that no expect has taken, and those of a header block not yet ended: unread,
    /// as bytes in the buffer are.
    var undelivered: [HTTP2ReceivedFrame] {
        frames + openBlock.map { HTTP2ReceivedFrame(frame: $0, blockProblem: "its header block not ended yet") }
    }

    /// Puts frames an expect left back in front, in their order, for the expects after it.
    func keep(_ left: [HTTP2ReceivedFrame]) {
        frames.insert(contentsOf: left, at: 0)
        heldBytes += left.reduce(0) { $0 + $1.frame.payload.count + HTTP2Frame.headerSize }
    }

    /// Writes a frame at once, outside any step's send (an ACK, a PING's answer).
    func send(_ frame: HTTP2Frame) {
        channel.writeAndFlush(ByteBuffer(bytes: frame.encoded()), counting: countSent)
    }
}
