import ProbeScript
import Synchronization

/// A `send` worked out before its first write: the connection, the bytes and the writes they
/// go out in. The async part of a send holds this one reference while it waits, which keeps the
/// frames of ten thousand waiting `parallel` copies small.
final class PreparedSend: Sendable {
    let statement: Statement
    let connection: ProbeConnection
    /// What the statement sends (a line, a message, a frame…), for the log.
    let data: SendStep.Data
    let payload: SendPayload
    /// Where the modifiers cut the payload between writes: none for one write.
    let cuts: [Int]
    let interval: Duration?
    /// Bytes per second, for `at RATE`.
    let rate: Int?
    /// The connection's byte count before this send, where its cuts are counted from.
    let streamStart: Int
    /// Over TLS, the connection's count of application data records sent before this send.
    let recordsBefore: Int?
    /// `until closed`: how long from the step's start the peer has to close.
    let closeWithin: Duration?
    /// How long its writes waited for the capture to catch up.
    private let held = Mutex(Duration.zero)

    init(statement: Statement, connection: ProbeConnection, data: SendStep.Data, payload: SendPayload, cuts: [Int],
         interval: Duration?, rate: Int?, closeWithin: Duration?) {
        self.statement = statement
        self.connection = connection
        self.data = data
        self.payload = payload
        self.cuts = cuts
        self.interval = interval
        self.rate = rate
        self.closeWithin = closeWithin
        self.streamStart = connection.bytesSent
        self.recordsBefore = connection.tls?.tap.applicationRecordsSent
    }

    /// How long its writes waited for the capture to catch up.
    var heldForCapture: Duration { held.withLock { $0 } }

    /// Adds to the time its writes waited for the capture.
    func noteHeld(_ duration: Duration) {
        held.withLock { $0 += duration }
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
