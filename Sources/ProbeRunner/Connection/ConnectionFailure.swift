import ProbeResults
import ProbeScript

/// Why a step on the probe's own connections failed: connect, accept, send, expect, the slow
/// read, shutdown and abort, and the bytes left unread.
enum ConnectionFailure: FailureReason, Equatable {
    // which connection
    case noConnection
    case closedByProbe(connection: String, at: String)
    // connect and accept
    case badURLAddress(argument: String, rendered: String, address: String)
    /// A `from` source address the machine does not have: its words.
    case sourceUnavailable(String)
    case cannotConnect(address: String, why: ConnectFailure)
    case connectFailedOtherwise(address: String, expected: String, why: ConnectFailure)
    case connectSucceeded(address: String, expected: String)
    case resetBeforeTLS
    case noClient(listener: String, byDeadline: Bool, wait: Duration)
    case tlsFailureNeedsTLSListener
    case noFreePort
    // send
    case writeShutDown(connection: String)
    case closed(connection: String, how: String)
    case peerDidNotClose(within: Duration, sent: Int, total: Int)
    case repeatDidNotClose(connection: String?, turns: Int, timeout: Duration)
    case sendFailed(sent: Int, total: Int, why: String)
    case peerNotReading(byDeadline: Bool, wait: Duration, sent: Int, total: Int)
    case cannotReadFile(String)
    case frameOfZero
    case chunkOfZero
    case splitNotIncreasing([Int])
    case splitBelowOne(Int)
    case splitOutside(offset: Int, count: Int)
    // expect and reading
    case webSocketReadsMessages(connection: String)
    case proxyReadsBytes
    /// The matcher's account of what came instead (`ExpectationMatcher`).
    case mismatch(String)
    /// Nothing matched within the wait; `misframing` is the framing's note on what came,
    /// `unconsumed` previews the bytes no expect took (nil: none).
    case timedOut(byDeadline: Bool, wait: Duration, waitingFor: String, misframing: String?, unconsumed: String?)
    case slowReadArguments
    case slowReadNoClose
    /// Bytes or messages left unread under `set unread fail`: the account of them.
    case unread(String)
    // shutdown and abort
    case shutdownFailed(String)
    case abortFailed(String)

    var kind: StepFailure.Kind {
        switch self {
        case .sourceUnavailable, .noFreePort, .cannotReadFile: .environment
        case .cannotConnect(_, let why): why.reason == .noLocalPort ? .environment : .assertion
        default: .assertion
        }
    }

    var description: String {
        switch self {
        case .noConnection: "no connection to act on: open one with 'connect' or 'accept' first"
        case .closedByProbe(let connection, let at): "\(connection) was closed by the probe at \(at)"
        case .badURLAddress(let argument, let rendered, let address):
            "'\(argument)' gives '\(rendered)', whose address '\(address)' is not HOST:PORT"
        case .sourceUnavailable(let why): why
        case .cannotConnect(let address, let why): "cannot connect to \(address): \(why)"
        case .connectFailedOtherwise(let address, let expected, let why):
            "expected the connect to \(address) to fail with \(expected), but it failed with \(why)"
        case .connectSucceeded(let address, let expected): "expected the connect to \(address) to fail with \(expected), but it succeeded"
        case .resetBeforeTLS: "no TLS handshake: the peer reset the connection (RST) at once"
        case .noClient(let listener, let byDeadline, let wait):
            (byDeadline ? "the scenario deadline of \(short(wait)) passed" : "no client connected within \(short(wait))") + " to listener '\(listener)'"
        case .tlsFailureNeedsTLSListener: "'expect tls-failure' needs a listener opened with 'listen … tls'"
        case .noFreePort: "cannot find a free TCP port on 127.0.0.1"
        case .writeShutDown(let connection): "\(connection) has shut down writing; nothing more can be sent"
        case .closed(let connection, let how): "\(connection) is closed: \(how)"
        case .peerDidNotClose(let within, let sent, let total):
            "the peer did not close the connection within \(short(within)) of the step's start (\(sent) of \(total) bytes sent)"
        case .repeatDidNotClose(let connection, let turns, let timeout):
            "the peer did not close \(connection ?? "the connection") within the repeat's \(turns) turns and \(short(timeout)) after them"
        case .sendFailed(let sent, let total, let why): "send failed after \(sent) of \(total) bytes: \(why)"
        case .peerNotReading(let byDeadline, let wait, let sent, let total):
            (byDeadline ? "the scenario deadline of \(short(wait)) passed" : "a write blocked for \(short(wait))")
                + ": the peer is not reading (\(sent) of \(total) bytes written)"
        case .cannotReadFile(let why): "cannot read \(why)"
        case .frameOfZero: "a frame holds at least 1 byte"
        case .chunkOfZero: "a chunk size must be at least 1"
        case .splitNotIncreasing(let cuts): "split offsets must increase: \(cuts.map(String.init).joined(separator: ","))"
        case .splitBelowOne(let first): "split offsets start at 1, not \(first)"
        case .splitOutside(let offset, let count):
            "split offset \(offset) is not inside the \(count) bytes being sent (offsets run from 1 to \(count - 1))"
        case .webSocketReadsMessages(let connection):
            "\(connection) is a WebSocket connection: read its messages with expect text or expect binary"
        case .proxyReadsBytes:
            "a proxy forwards and watches raw bytes: expect text|binary|ping|pong|close read a WebSocket connection of the probe's own"
        case .mismatch(let verdict): verdict
        case .timedOut(let byDeadline, let wait, let waitingFor, let misframing, let unconsumed):
            (byDeadline ? "the scenario deadline of \(short(wait)) passed" : "timed out after \(short(wait))")
                + " waiting for \(waitingFor); " + (misframing.map { $0 + "; " } ?? "")
                + (unconsumed.map { "unconsumed so far: \($0)" } ?? "nothing unconsumed had arrived")
        case .slowReadArguments: "a slow read needs at least 1 byte and a positive interval"
        case .slowReadNoClose: "the peer did not close during the slow read"
        case .unread(let account): account + " (set unread fail)"
        case .shutdownFailed(let why): "shutdown write failed: \(why)"
        case .abortFailed(let why): "abort failed: \(why)"
        }
    }

    private func short(_ duration: Duration) -> String {
        DurationFormat.short(duration)
    }
}
