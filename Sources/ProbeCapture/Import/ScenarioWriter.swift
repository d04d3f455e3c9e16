import FoundationEssentials
import ProbeFraming
import ProbeScript

/// Writes a captured conversation as a scenario that replays it: the probe takes one side (the
/// client by default), sends what that side sent, and expects what the other sent, a step per
/// line, message or turn; the endings become `close`, `shutdown write`, `abort`, `expect eof`
/// and `expect reset`. Lines when both directions are line-framed, length-prefixed messages
/// when a header fits both, bytes otherwise; text stays text.
package struct ScenarioWriter {
    /// The side the probe plays.
    package var role: Role = .client
    /// A pause of the probe's side longer than this becomes a `sleep`; nil keeps none.
    package var keepPauses: Double?
    /// Parts of expected lines or messages matching these become regex groups (volatile
    /// values: dates, ids), so a replay passes against a server that varies them.
    package var masks: [String] = []
    /// The header comment's first words, what wrote the scenario from where: "Imported by
    /// `tcpprobe import` from chat.pcap".
    package var origin: String

    /// A scenario imported from `source`, a capture file (and the connection chosen in it).
    package init(source: String) {
        origin = "Imported by `tcpprobe import` from \(source)"
    }

    /// A scenario of connection `connection` that `command` (`tcpprobe record …`) forwarded.
    package init(recordedBy command: String, connection: Int) {
        origin = "Recorded by `\(command)`, connection \(connection)"
    }

    /// How the bytes are cut into steps.
    enum Framing: Equatable {
        case lines(Terminator)
        case length(LengthHeader)
        case bytes
    }

    package func write(_ conversation: CapturedConversation) -> String {
        let framing = Self.framing(of: conversation)
        let probeIsClient = role == .client
        let peer = conversation.server
        var out = ["# \(origin): \(conversation.client) → \(conversation.server),",
                   "# captured \(Self.timestamp(conversation.startedAt)). The probe plays the \(role.rawValue)."]
        out.append("title \(ScenarioLiteral.string(Array("imported: \(conversation.client) → \(conversation.server)".utf8)))")
        out.append("var host = \(ScenarioLiteral.string(Array(peer.host.utf8)))")
        out.append("var port = \"\(peer.port)\"")
        switch framing {
        case .lines(let terminator) where terminator != .crlf: out.append("set terminator \(terminator)")
        case .length(let header): out.append("set framing \(header.words)")
        default: break
        }
        let tls = conversation.isTLS && conversation.startTLSAt == nil ? " tls insecure" : ""
        if probeIsClient {
            out.append("connect {host}:{port}\(tls)")
        } else {
            out.append("listen l {host}:{port}\(tls)")
            out.append("accept c on l")
        }
        var steps = Steps(writer: self, framing: framing)
        var lastEvent = conversation.turns.first?.start ?? conversation.startedAt
        enum Event { case turn(CapturedConversation.Turn), ending(CapturedConversation.Ending, fromClient: Bool), startTLS }
        var events: [(time: Double, event: Event)] = conversation.turns.map { ($0.start, .turn($0)) }
        if let startTLS = conversation.startTLSAt { events.append((startTLS, .startTLS)) }
        if let ending = conversation.clientEnding { events.append((ending.time, .ending(ending.kind, fromClient: true))) }
        if let ending = conversation.serverEnding { events.append((ending.time, .ending(ending.kind, fromClient: false))) }
        events.sort { $0.time < $1.time }
        for (index, (time, event)) in events.enumerated() {
            switch event {
            case .startTLS:
                // The client's hello: the upgrade, in place, on the probe's side of it.
                out.append(probeIsClient ? "starttls insecure" : "starttls")
            case .turn(let turn):
                let fromProbe = turn.fromClient == probeIsClient
                if fromProbe, let keepPauses, time - lastEvent > keepPauses {
                    out.append("sleep \(Int(((time - lastEvent) * 1000).rounded()))ms")
                }
                out += fromProbe ? steps.sends(turn.bytes) : steps.expects(turn.bytes)
                lastEvent = turn.end
            case .ending(let kind, let fromClient):
                let fromProbe = fromClient == probeIsClient
                if fromProbe {
                    if kind == .rst {
                        out.append("abort")
                        return Self.joined(out)
                    }
                    // A FIN the peer answers with more bytes, or with its own FIN, is a half-close.
                    let peerFollows = events[(index + 1)...].contains { later in
                        if case .turn(let turn) = later.event { return turn.fromClient != probeIsClient }
                        if case .ending(_, let from) = later.event { return from != probeIsClient }
                        return false
                    }
                    if peerFollows {
                        out.append("shutdown write")
                    } else {
                        out.append("close")
                        return Self.joined(out)
                    }
                } else {
                    out.append(kind == .rst ? "expect reset" : "expect eof")
                    if kind == .rst { return Self.joined(out) }
                }
                lastEvent = time
            }
        }
        return Self.joined(out)
    }

    private static func joined(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

    /// "2026-11-23T15:42:01Z".
    static func timestamp(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(.iso8601)
    }

    /// Lines when both directions are text cut by one terminator (CRLF, else LF); messages when
    /// a 4- or 2-byte big-endian length, or MQTT's head byte and varint, cuts both into whole
    /// messages; else bytes.
    static func framing(of conversation: CapturedConversation) -> Framing {
        let client = conversation.turns.filter(\.fromClient).flatMap(\.bytes)
        let server = conversation.turns.filter { !$0.fromClient }.flatMap(\.bytes)
        for terminator in [Terminator.crlf, .lf] where [client, server].allSatisfy({ isLines($0, terminator) }) {
            return .lines(terminator)
        }
        for header in [LengthHeader(width: 4), LengthHeader(width: 2), LengthHeader(field: .varint, after: 1)] {
            let units = MessageUnits.length(header)
            if [client, server].allSatisfy({ $0.isEmpty || units.messages(in: $0).last?.range.upperBound == $0.count }) {
                return .length(header)
            }
        }
        return .bytes
    }

    /// Empty, or text whose every line ends in `terminator` (and no CR or LF stands alone).
    private static func isLines(_ stream: [UInt8], _ terminator: Terminator) -> Bool {
        guard !stream.isEmpty else { return true }
        guard ScenarioLiteral.isText(stream), stream.last == 10 else { return false }
        for (index, byte) in stream.enumerated() {
            switch (terminator, byte) {
            case (.crlf, 10): if index == 0 || stream[index - 1] != 13 { return false }
            case (.crlf, 13): if index + 1 >= stream.count || stream[index + 1] != 10 { return false }
            case (_, 13): return false
            default: break
            }
        }
        return true
    }

    /// Turns into steps, carrying a line or message split across turns over to the next.
    private struct Steps {
        let writer: ScenarioWriter
        let framing: Framing
        private var pending: [Bool: [UInt8]] = [:]

        init(writer: ScenarioWriter, framing: Framing) {
            self.writer = writer
            self.framing = framing
        }

        mutating func sends(_ bytes: [UInt8]) -> [String] {
            units(bytes, fromProbe: true).map { (head, unit) in
                switch framing {
                case .lines(let terminator): return "send line \(ScenarioLiteral.string(unit.dropLast(terminator.bytes.count)))"
                case .length: return "send message " + Self.head(head) + ScenarioLiteral.data(unit)
                case .bytes: return "send \(ScenarioLiteral.data(unit))"
                }
            }
        }

        mutating func expects(_ bytes: [UInt8]) -> [String] {
            units(bytes, fromProbe: false).map { (head, unit) in
                switch framing {
                case .lines(let terminator): return "expect line " + writer.match(Array(unit.dropLast(terminator.bytes.count)))
                case .length: return "expect message " + Self.head(head) + (ScenarioLiteral.isText(unit) ? writer.match(unit) : ScenarioLiteral.hex(unit))
                case .bytes: return writer.expectBytes(unit)
                }
            }
        }

        /// `head hex"10" ` (or `head "Q" ` for a visible character) before a message's payload,
        /// or nothing for a message without one.
        private static func head(_ bytes: [UInt8]) -> String {
            if bytes.isEmpty { return "" }
            return "head " + (bytes.allSatisfy { (0x21...0x7E).contains($0) } ? ScenarioLiteral.string(bytes) : ScenarioLiteral.hex(bytes)) + " "
        }

        /// The whole lines or messages among what the side had pending and `bytes`: a line with
        /// its terminator, a message's head and payload (its length field left to the framing);
        /// bytes, whole.
        private mutating func units(_ bytes: [UInt8], fromProbe: Bool) -> [(head: [UInt8], bytes: [UInt8])] {
            let stream = (pending[fromProbe] ?? []) + bytes
            let units: [(range: Range<Int>, head: [UInt8], bytes: [UInt8])]
            switch framing {
            case .lines(let terminator):
                units = MessageUnits.lines(terminator: terminator.bytes).messages(in: stream).map { ($0.range, [], Array(stream[$0.range])) }
            case .length(let header):
                units = MessageUnits.length(header).messages(in: stream).map {
                    ($0.range, Array(stream[$0.range.prefix(header.after)]), Array($0.payload))
                }
            case .bytes: return [([], stream)]
            }
            pending[fromProbe] = Array(stream[(units.last?.range.upperBound ?? 0)...])
            return units.map { ($0.head, $0.bytes) }
        }
    }

    /// An expected line or message: as written, or with the parts `masks` match as regex groups.
    func match(_ bytes: [UInt8]) -> String {
        guard let pattern = maskedPattern(bytes) else { return ScenarioLiteral.string(bytes) }
        return "/^" + pattern + "$/"
    }

    /// An expected turn of bytes: as written, or when `masks` match in its text, an `until` of
    /// the regex that reads up to the turn's end with those parts as groups.
    func expectBytes(_ bytes: [UInt8]) -> String {
        guard ScenarioLiteral.isText(bytes), let pattern = maskedPattern(bytes) else { return "expect \(ScenarioLiteral.data(bytes))" }
        return "expect until /" + pattern + "/ max \(max(bytes.count * 2, 1024))"
    }

    /// The text of `bytes` as a regex, its literal parts escaped and each part a mask matches
    /// as a named group (`masked1`, …), ready for a `/…/` literal; nil when no mask matches.
    private func maskedPattern(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        var cuts: [(range: Range<String.Index>, mask: String)] = []
        for mask in masks {
            guard let regex = try? Regex(mask) else { continue }
            for found in text.matches(of: regex) where !found.range.isEmpty && !cuts.contains(where: { $0.range.overlaps(found.range) }) {
                cuts.append((found.range, mask))
            }
        }
        guard !cuts.isEmpty else { return nil }
        cuts.sort { $0.range.lowerBound < $1.range.lowerBound }
        var pattern = ""
        var position = text.startIndex
        for (index, cut) in cuts.enumerated() {
            pattern += Self.regexEscaped(text[position..<cut.range.lowerBound]) + "(?<masked\(index + 1)>\(cut.mask))"
            position = cut.range.upperBound
        }
        pattern += Self.regexEscaped(text[position...])
        // A slash ends the regex literal: written \/ it is the slash itself.
        return pattern.split(separator: "/", omittingEmptySubsequences: false).joined(separator: "\\/")
    }

    private static func regexEscaped(_ text: Substring) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}": out += "\\" + String(scalar)
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
