import ProbeScript

/// A `send` worked out before its first write: the connection, the bytes and the writes they
/// go out in. A value: a send of one write carries it inline in its write's object (see
/// `StepWrite`), so the usual send makes no object of its own.
struct SendPlan: Sendable {
    let statement: Statement
    let connection: ProbeConnection
    /// How the log sums the bytes up beside showing them: the kind of what the statement
    /// sends, not a copy of it (a copy costs a round trip's send its references).
    let summary: Summary
    let payload: SendPayload
    /// The connection's byte count before this send, where its cuts are counted from.
    let streamStart: Int
    /// Over TLS, the connection's count of application data records sent before this send.
    let recordsBefore: Int?
    /// What the modifiers ask for, held apart: none for a plain send, whose plan is then small
    /// enough to move without a call to copy memory (a send of one write moved it eight times).
    private let shaping: Shaping?

    /// Where the modifiers cut the payload between writes: none for one write.
    var cuts: [Int] { shaping?.cuts ?? [] }
    var interval: Duration? { shaping?.interval }
    /// Bytes per second, for `at RATE`.
    var rate: Int? { shaping?.rate }
    /// `until closed`: how long from the step's start the peer has to close.
    var closeWithin: Duration? { shaping?.closeWithin }

    private final class Shaping: Sendable {
        let cuts: [Int]
        let interval: Duration?
        let rate: Int?
        let closeWithin: Duration?

        init(cuts: [Int], interval: Duration?, rate: Int?, closeWithin: Duration?) {
            self.cuts = cuts
            self.interval = interval
            self.rate = rate
            self.closeWithin = closeWithin
        }
    }

    /// The kinds of send whose log entry sums their bytes up.
    enum Summary {
        case none
        /// One message of a length framing: its head and length field.
        case message
        case webSocketFrames
        case http2Frames

        init(_ data: SendStep.Data) {
            switch data {
            case .message: self = .message
            case .webSocket: self = .webSocketFrames
            case .http2: self = .http2Frames
            case .bytes, .line, .file, .random: self = .none
            }
        }
    }

    init(statement: Statement, connection: ProbeConnection, data: SendStep.Data, payload: SendPayload, cuts: [Int] = [],
         interval: Duration? = nil, rate: Int? = nil, closeWithin: Duration? = nil) {
        self.statement = statement
        self.connection = connection
        self.summary = Summary(data)
        self.payload = payload
        let plain = cuts.isEmpty && interval == nil && rate == nil && closeWithin == nil
        self.shaping = plain ? nil : Shaping(cuts: cuts, interval: interval, rate: rate, closeWithin: closeWithin)
        self.streamStart = connection.bytesSent
        self.recordsBefore = connection.tls?.tap.applicationRecordsSent
    }

    /// Ranges of the payload, one per write the modifiers ask for.
    var pieces: [Range<Int>] {
        zip([0] + cuts, cuts + [payload.count]).map { $0..<$1 }
    }

    /// One write of bytes held in memory: the usual send. A paced send that is not cut (all
    /// its bytes fit the first twentieth of a second) is one write at once too. A send `until
    /// closed` waits for the peer's close after its writes, so it is never just one write.
    var singleWrite: [UInt8]? {
        guard cuts.isEmpty, closeWithin == nil, payload.count <= ScenarioExecution.largestWrite, case .bytes(let bytes) = payload else { return nil }
        return bytes
    }
}
