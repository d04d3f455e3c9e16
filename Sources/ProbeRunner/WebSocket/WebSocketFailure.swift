import ProbeResults
import ProbeScript

/// Why a WebSocket step failed: the upgrade, as client or server, or a WebSocket step on a
/// connection that did not upgrade.
enum WebSocketFailure: FailureReason, Equatable {
    /// What was wrong with the server's answer to the probe's upgrade request.
    enum Answer: Equatable, Sendable {
        case notSwitching(startLine: String)
        case noUpgradeHeader
        case wrongAccept(got: String?, expected: String)
        case protocolNotOffered(String)
        case noProtocolAgreed(offered: [String])
        /// The head reader's own account (a head over its limit, the connection ending).
        case unreadableHead(String)
        /// No whole head within the wait; `received` previews what came, nil when nothing did.
        case noHead(within: Duration, received: String?)
    }

    /// What was wrong with the client's upgrade request, which the probe answered 400.
    enum Request: Equatable, Sendable {
        case badRequestLine(preview: String)
        case noUpgradeHeaders
        case badVersion(String?)
        case badKey(String?)
        case noCommonProtocol(wanted: [String], offered: [String])
    }

    case upgradeFailed(Answer)
    case notAnUpgrade(Request)
    case clientNotReadingAnswer
    case peerNotReadingRequest
    case notWebSocket(connection: String)

    var description: String {
        switch self {
        case .upgradeFailed(let answer): "WebSocket upgrade failed: " + Self.words(answer)
        case .notAnUpgrade(let request): "not a WebSocket upgrade: " + Self.words(request)
        case .clientNotReadingAnswer: "the client does not read the 101 answer"
        case .peerNotReadingRequest: "the peer does not read the upgrade request"
        case .notWebSocket(let connection): "\(connection) is not a WebSocket connection (connect ws://… or accept … websocket)"
        }
    }

    private static func words(_ answer: Answer) -> String {
        switch answer {
        case .notSwitching(let startLine): "the server answered \"\(startLine)\", not 101 Switching Protocols"
        case .noUpgradeHeader: "the 101 has no \"Upgrade: websocket\""
        case .wrongAccept(let got, let expected): "Sec-WebSocket-Accept is \(quoted(got)), expected \"\(expected)\""
        case .protocolNotOffered(let chosen): "the server chose the protocol \"\(chosen)\", which was not offered"
        case .noProtocolAgreed(let offered): "the server agreed on none of the protocols offered (\(offered.joined(separator: ", ")))"
        case .unreadableHead(let why): why
        case .noHead(let within, let received):
            "no HTTP head within \(DurationFormat.short(within)); " + (received.map { "received \($0)" } ?? "nothing came")
        }
    }

    private static func words(_ request: Request) -> String {
        switch request {
        case .badRequestLine(let preview): "the request line is \(preview), not GET … HTTP/1.1"
        case .noUpgradeHeaders: "the request has no \"Upgrade: websocket\" and \"Connection: Upgrade\""
        case .badVersion(let version): "Sec-WebSocket-Version is \(version ?? "missing"), not 13"
        case .badKey(let key): "Sec-WebSocket-Key is \(quoted(key)), not 16 bytes in base64"
        case .noCommonProtocol(let wanted, let offered):
            "the client offered no protocol of \(wanted.joined(separator: ", ")) (it offered \(offered.isEmpty ? "none" : offered.joined(separator: ", ")))"
        }
    }

    private static func quoted(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "missing"
    }
}
