import ProbeFraming
import ProbeScript

/// What `set` statements change as a scenario runs, in one value: each step reads it, and a
/// copy of a `parallel` block starts with the one in force at the block.
struct Settings {
    /// A step's own limit, unless its `within` says.
    var timeout: Duration = .seconds(5) {
        didSet { timeoutNanoseconds = timeout.saturatedNanoseconds }
    }
    /// The whole scenario's limit.
    var deadline: Duration = .seconds(60) {
        didSet { deadlineNanoseconds = deadline.saturatedNanoseconds }
    }
    /// The two limits in nanoseconds, kept as they change: a round trip's steps weigh them
    /// four times, in integers rather than `Duration`'s 128-bit arithmetic (issue 64).
    private(set) var timeoutNanoseconds: Int64 = 5_000_000_000
    private(set) var deadlineNanoseconds: Int64 = 60_000_000_000
    var terminator: Terminator = .crlf {
        didSet { lineFraming = Self.lines(terminator, maxLine) }
    }
    var maxLine = 64 * 1024 {
        didSet { lineFraming = Self.lines(terminator, maxLine) }
    }
    var unread = UnreadPolicy.note
    var cutOff = CutOffPolicy.fail
    /// What `send message` and `expect message` frame with.
    var messageFraming = MessageFraming.lines
    var maxMessage = 1 << 20
    /// The probe answers a WebSocket peer's pings itself (`set websocket auto-pong`).
    var webSocketAutoPong = true
    /// `connect h2://` sends the preface and exchanges SETTINGS (`set http2 handshake`).
    var http2Handshake = true
    /// SETTINGS are acked and PINGs answered in the background (`set http2 auto-ack`).
    var http2AutoAck = true

    /// The framing `send line` and the line expects use under these settings: kept as they
    /// change, for a send and an expect read it every round trip, and a property worked out
    /// on each read copied the whole settings first (issue 64).
    private(set) var lineFraming: TerminatedLineFraming

    init() {
        lineFraming = Self.lines(terminator, maxLine)
    }

    /// The framing `send message` and `expect message` use: lines, or length-prefixed.
    var framing: any Framing {
        switch messageFraming {
        case .lines: return lineFraming
        case .length(let header): return LengthPrefixFraming(header: header, maxMessage: maxMessage)
        }
    }

    private static func lines(_ terminator: Terminator, _ maxLine: Int) -> TerminatedLineFraming {
        TerminatedLineFraming(terminator: terminator.bytes, maxLine: maxLine)
    }
}
