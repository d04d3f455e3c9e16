import ProbeScript

/// One TCP conversation as a scenario sees it: who is client and server, the bytes each sent
/// turn by turn (a turn ends when the other side speaks), and how each side ended (FIN or RST),
/// each with its time. Built from a capture's segments, or recorded by a proxy.
package struct CapturedConversation: Sendable {
    package struct Turn: Sendable, Equatable {
        package var fromClient: Bool
        package var bytes: [UInt8]
        /// When its first and last bytes were seen, in seconds.
        package var start: Double
        package var end: Double

        package init(fromClient: Bool, bytes: [UInt8], start: Double, end: Double) {
            self.fromClient = fromClient
            self.bytes = bytes
            self.start = start
            self.end = end
        }
    }

    /// How a side ended its sending.
    package enum Ending: String, Sendable { case fin, rst }

    package var client: Address
    package var server: Address
    package var turns: [Turn] = []
    package var clientEnding: (kind: Ending, time: Double)?
    package var serverEnding: (kind: Ending, time: Double)?
    /// When it began, in seconds since the epoch.
    package var startedAt: Double
    /// True when its bytes are TLS's decrypted application data.
    package var isTLS = false
    /// When TLS began, for a conversation that spoke plaintext first (STARTTLS): the time of
    /// the ClientHello. Nil when there was no TLS, or TLS from the first byte.
    package var startTLSAt: Double?

    package init(client: Address, server: Address, startedAt: Double) {
        self.client = client
        self.server = server
        self.startedAt = startedAt
    }

    /// Bytes of one side this close together are one turn; a longer pause starts another, so a
    /// pause within what one side sends can be kept as a `sleep`.
    static let turnGap = 0.001

    /// Adds bytes one side sent at `time`: to that side's last turn when it spoke last, and
    /// within `turnGap`.
    package mutating func add(_ bytes: some Collection<UInt8>, fromClient: Bool, at time: Double) {
        guard !bytes.isEmpty else { return }
        if let last = turns.last, last.fromClient == fromClient, time - last.end <= Self.turnGap {
            turns[turns.count - 1].bytes += bytes
            turns[turns.count - 1].end = time
        } else {
            turns.append(Turn(fromClient: fromClient, bytes: Array(bytes), start: time, end: time))
        }
    }

    /// A side's FIN or RST, the first only.
    package mutating func end(_ kind: Ending, fromClient: Bool, at time: Double) {
        if fromClient {
            if clientEnding == nil { clientEnding = (kind, time) }
        } else if serverEnding == nil {
            serverEnding = (kind, time)
        }
    }

    /// Why a capture cannot be imported.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    /// The conversation of a connection's segments: the client is the side that sent the SYN;
    /// each direction is reassembled, and a byte missing from the capture is an error that names
    /// where. A TLS conversation with `keys` gives its decrypted bytes.
    package init(segments: [TCPSegment], keys: TLSKeyMaterial? = nil) throws {
        guard let syn = segments.first(where: { $0.flags.contains(.syn) && !$0.flags.contains(.ack) }) else {
            throw Problem(description: "the connection's handshake was not captured (no SYN): which side is the client cannot be told")
        }
        let client = Address(host: syn.sourceAddress, port: syn.sourcePort)
        let server = Address(host: syn.destinationAddress, port: syn.destinationPort)
        self.init(client: client, server: server, startedAt: syn.timestamp)
        let trace = ConnectionTrace(segments: segments, probePort: client.port, peerPort: server.port)
        for (direction, name) in [(trace.fromProbe, "the client's"), (trace.fromPeer, "the server's")] {
            if let hole = direction.holes.first {
                throw Problem(description: "the capture is missing \(hole.count) bytes of \(name) stream at offset \(hole.lowerBound) (packets not captured)")
            }
            if direction.payloadsTruncated {
                throw Problem(description: "the capture kept only the start of each packet (a snap length): \(name) bytes are not all there")
            }
        }
        var pieces: [(time: Double, fromClient: Bool, bytes: ArraySlice<UInt8>)] = []
        if let keys, TLSConversation.helloStart(in: trace.fromProbe.stream, type: 1) != nil {
            let tls = TLSConversation(client: trace.fromProbe.stream, server: trace.fromPeer.stream, keys: keys)
            if let problem = tls.problem { throw Problem(description: "the TLS conversation cannot be decrypted: \(problem)") }
            for (records, tcp, fromClient) in [(tls.clientRecords, trace.fromProbe, true), (tls.serverRecords, trace.fromPeer, false)] {
                for record in records {
                    let last = (record.streamRange.upperBound - 1)..<record.streamRange.upperBound
                    guard let carrier = tcp.carriers(of: last).last?.segment else { continue }
                    if record.contentType == .applicationData, !record.plaintext.isEmpty {
                        pieces.append((carrier.timestamp, fromClient, record.plaintext[...]))
                    } else if record.contentType == .alert, record.plaintext.count == 2, record.plaintext[1] == TLSAlert.closeNotify {
                        // Over TLS a side's close_notify is its close, whenever its FIN follows.
                        end(.fin, fromClient: fromClient, at: carrier.timestamp)
                    }
                }
            }
            // What each side said in the clear before its hello (STARTTLS): kept as it was.
            for (direction, fromClient, start) in [(trace.fromProbe, true, tls.clientStart), (trace.fromPeer, false, tls.serverStart)] where start > 0 {
                for data in direction.dataSegments where data.range.lowerBound < start {
                    pieces.append((data.segment.timestamp, fromClient, direction.stream[data.range.lowerBound..<min(data.range.upperBound, start)]))
                }
            }
            if tls.clientStart > 0 {
                startTLSAt = trace.fromProbe.carriers(of: tls.clientStart..<(tls.clientStart + 1)).first?.segment.timestamp
            }
            isTLS = true
        } else {
            for (direction, fromClient) in [(trace.fromProbe, true), (trace.fromPeer, false)] {
                for data in direction.dataSegments { pieces.append((data.segment.timestamp, fromClient, direction.stream[data.range])) }
            }
        }
        for piece in pieces.sorted(by: { $0.time < $1.time }) { add(piece.bytes, fromClient: piece.fromClient, at: piece.time) }
        for segment in trace.segments {
            let fromClient = segment.sourcePort == client.port
            if segment.flags.contains(.rst) { end(.rst, fromClient: fromClient, at: segment.timestamp) }
            if segment.flags.contains(.fin) { end(.fin, fromClient: fromClient, at: segment.timestamp) }
        }
    }
}
