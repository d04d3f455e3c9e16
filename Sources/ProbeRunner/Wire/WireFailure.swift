import ProbeResults
import ProbeScript

/// Why a wire step failed: the capture (environment errors), the leg it names, or the verdict.
enum WireFailure: FailureReason, Equatable {
    case cannotPrepareCapture(error: String)
    /// `--require-capture` and the capture did not open.
    case cannotCapture(error: String)
    case cannotWatchPort(error: String)
    /// The capture cannot decide (segments lost to the kernel, a connection not seen whole).
    case inconclusive(String)
    case noPorts(leg: String)
    case unreadableCapture(String)
    case inconclusiveOverTLS(String)
    case recordsWithoutTLS(leg: String)
    case regexOutlastedDeadline(deadline: Duration)
    /// Checked over the decrypted records; `rows` show the records that failed it.
    case recordsFailed(direction: String, summary: String, rows: [String])
    /// Checked over the segments; `leg` names a proxy's leg, `rows` the segments that failed it.
    case segmentsFailed(leg: String?, direction: String, summary: String, rows: [String])
    case probeDirectionOnProxy(direction: String)
    case noSuchProxyLink(proxy: String, links: Int)
    case proxyDirectionOnConnection(direction: String, connection: String)
    /// `check` ("masked and unmasked check WebSocket frames") on a leg that does not speak
    /// `protocols` ("WebSocket", "WebSocket or HTTP/2").
    case needsProtocol(check: String, leg: String, protocols: String)

    var kind: StepFailure.Kind {
        switch self {
        case .cannotPrepareCapture, .cannotCapture, .cannotWatchPort: .environment
        default: .assertion
        }
    }

    var description: String {
        switch self {
        case .cannotPrepareCapture(let error): "cannot capture into \(error)"
        case .cannotCapture(let error): "cannot capture: \(error) (--require-capture)"
        case .cannotWatchPort(let error): error
        case .inconclusive(let why): "inconclusive: \(why)"
        case .noPorts(let leg): "\(leg) has no known ports to find it in the capture"
        case .unreadableCapture(let why): "cannot read the capture: \(why)"
        case .inconclusiveOverTLS(let why): "inconclusive over TLS: \(why)"
        case .recordsWithoutTLS(let leg): "records counts TLS records, and \(leg) does not speak TLS"
        case .regexOutlastedDeadline(let deadline):
            "the scenario deadline of \(DurationFormat.short(deadline)) passed while the regex was still searching the captured stream"
        case .recordsFailed(let direction, let summary, let rows):
            "wire \(direction), decrypted: \(summary)" + (rows.isEmpty ? "" : "\nrecords (times from the scenario's start):\n" + rows.joined(separator: "\n"))
        case .segmentsFailed(let leg, let direction, let summary, let rows):
            (leg.map { "\($0): " } ?? "") + "wire \(direction): \(summary)"
                + (rows.isEmpty ? "" : "\nsegments (→ probe to peer, ← peer to probe; times from the connection's first segment, not the scenario's start):\n"
                    + rows.joined(separator: "\n"))
        case .probeDirectionOnProxy(let direction):
            "a proxy's wire is 'from client', 'from server', 'to client' or 'to server', not '\(direction)'"
        case .noSuchProxyLink(let proxy, let links): "proxy '\(proxy)' has no such connection (\(links) so far)"
        case .proxyDirectionOnConnection(let direction, let connection):
            "'\(direction)' names a leg of a proxy; \(connection) is 'from peer' or 'from probe'"
        case .needsProtocol(let check, let leg, let protocols): "\(check), and \(leg) does not speak \(protocols) (a proxy's legs are read as bytes)"
        }
    }
}
