import Crypto
import FoundationEssentials
import NIOCore
import NIOWebSocket
import ProbeFraming
import ProbeResults
import ProbeScript

/// WebSocket (RFC 6455) on a connection, for the scenario or `parallel` copy that `context` is:
/// the upgrade as part of `connect ws://…` and `accept … websocket`, the frames `send
/// text|binary|ping|pong|close` write, and the rules WebSocket expects judge by. It has no
/// statements of its own: the connection steps call it.
final class WebSocketSteps {
    private unowned let context: any StepContext

    init(context: any StepContext) {
        self.context = context
    }

    /// The GUID RFC 6455 §1.3 appends to the key.
    private static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Sec-WebSocket-Accept for `key`.
    static func acceptValue(for key: String) -> String {
        Data(Insecure.SHA1.hash(data: Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// The client's upgrade: the request, then a 101 whose Sec-WebSocket-Accept answers the key.
    func upgradeAsClient(_ connection: ProbeConnection, _ target: WebSocketTarget, host hostHeader: String, within timeout: Duration,
                         _ statement: Statement) async throws {
        let started = context.clock.now
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let protocols = target.protocols.map { $0.renderString(context.lookup) }
        var request = "GET \(target.path.renderString(context.lookup)) HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if !protocols.isEmpty { request += "Sec-WebSocket-Protocol: \(protocols.joined(separator: ", "))\r\n" }
        for header in target.headers { request += header.renderString(context.lookup) + "\r\n" }
        request += "\r\n"
        let head = try await readHead(after: Array(request.utf8), on: connection, within: timeout, statement)
        let response = HTTPHead(head)
        func refuse(_ why: WebSocketFailure.Answer) -> StepFailure {
            StepFailure(statement, WebSocketFailure.upgradeFailed(why), connection, waited: context.clock.now - started)
        }
        guard response.startLine.hasPrefix("HTTP/1.1 101") else { throw refuse(.notSwitching(startLine: response.startLine)) }
        guard response.lists("Upgrade", "websocket") else { throw refuse(.noUpgradeHeader) }
        let expected = Self.acceptValue(for: key)
        guard response["Sec-WebSocket-Accept"] == expected else {
            throw refuse(.wrongAccept(got: response["Sec-WebSocket-Accept"], expected: expected))
        }
        let agreed = response["Sec-WebSocket-Protocol"]
        if let agreed, !protocols.contains(agreed) { throw refuse(.protocolNotOffered(agreed)) }
        if !protocols.isEmpty, agreed == nil { throw refuse(.noProtocolAgreed(offered: protocols)) }
        connection.webSocket = WebSocketSession(role: .client, channel: connection.channel, maxMessage: context.settings.maxMessage,
                                                 countSent: connection.sentCounter)
        context.record(statement, "\(connection.label): WebSocket upgrade done: \(response.startLine)" + (agreed.map { ", protocol \($0)" } ?? ""))
    }

    /// The server's side of the upgrade (`accept … websocket`): a GET with the upgrade's
    /// headers, answered 101; anything else is answered 400 and fails the step, saying why.
    func upgradeAsServer(_ connection: ProbeConnection, protocols offered: [Template], _ statement: Statement) async throws {
        let started = context.clock.now
        let head = try await readHead(after: [], on: connection, within: context.settings.timeout, statement)
        let request = HTTPHead(head)
        func refuse(_ why: WebSocketFailure.Request) async -> StepFailure {
            _ = try? await connection.send(ByteBuffer(string: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"), timeout: .seconds(1)).get()
            return StepFailure(statement, WebSocketFailure.notAnUpgrade(why), connection, waited: context.clock.now - started)
        }
        guard request.startLine.hasPrefix("GET "), request.startLine.hasSuffix(" HTTP/1.1") else {
            throw await refuse(.badRequestLine(preview: ByteEscaper.preview(Array(request.startLine.utf8.prefix(80)))))
        }
        guard request.lists("Upgrade", "websocket"), request.lists("Connection", "upgrade") else {
            throw await refuse(.noUpgradeHeaders)
        }
        guard request["Sec-WebSocket-Version"] == "13" else { throw await refuse(.badVersion(request["Sec-WebSocket-Version"])) }
        guard let key = request["Sec-WebSocket-Key"], Data(base64Encoded: key)?.count == 16 else {
            throw await refuse(.badKey(request["Sec-WebSocket-Key"]))
        }
        let wanted = offered.map { $0.renderString(context.lookup) }
        let asked = request["Sec-WebSocket-Protocol"]?.split(separator: ",").map(HTTPHead.trimmed) ?? []
        let chosen = wanted.first { asked.contains($0) }
        if !wanted.isEmpty, chosen == nil { throw await refuse(.noCommonProtocol(wanted: wanted, offered: asked)) }
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(Self.acceptValue(for: key))\r\n"
        if let chosen { response += "Sec-WebSocket-Protocol: \(chosen)\r\n" }
        response += "\r\n"
        guard try await connection.send(ByteBuffer(string: response), timeout: context.settings.timeout).get() else {
            throw StepFailure(statement, WebSocketFailure.clientNotReadingAnswer, connection)
        }
        connection.webSocket = WebSocketSession(role: .server, channel: connection.channel, maxMessage: context.settings.maxMessage,
                                                 countSent: connection.sentCounter)
        context.record(statement, "\(connection.label): WebSocket upgrade answered: \(request.startLine)" + (chosen.map { ", protocol \($0)" } ?? ""))
    }

    /// Sends `request` (if any), then reads an HTTP head, at most 16 KiB, within `timeout`.
    private func readHead(after request: [UInt8], on connection: ProbeConnection, within timeout: Duration, _ statement: Statement) async throws -> String {
        let (wait, _) = context.limit(max(timeout, .zero))
        if !request.isEmpty {
            guard try await connection.send(ByteBuffer(bytes: request), timeout: wait).get() else {
                throw StepFailure(statement, WebSocketFailure.peerNotReadingRequest, connection)
            }
        }
        let matcher = ExpectationMatcher(.head(max: 16 * 1024), framing: context.settings.lineFraming)
        switch try await connection.expect(matcher, timeout: wait.timeAmount).get() {
        case .matched(let captures, _): return String(decoding: captures["head"] ?? [], as: UTF8.self)
        case .failed(let message): throw await StepFailure(statement, WebSocketFailure.upgradeFailed(.unreadableHead(message)), connection).withRecentBytes(of: connection)
        case .timedOut(_, let pending, _):
            let received = pending.isEmpty ? nil : ByteEscaper.preview(pending)
            throw StepFailure(statement, WebSocketFailure.upgradeFailed(.noHead(within: wait, received: received)), connection, waited: wait)
        }
    }

    /// The bytes of a `send text|binary|ping|pong|close|frame` on `connection`: one frame, or
    /// with `framesOf` a message fragmented into frames of that many payload bytes.
    func frame(_ send: WebSocketSend, framesOf: Int?, on connection: ProbeConnection, _ statement: Statement) throws -> [UInt8] {
        guard let session = connection.webSocket else {
            throw StepFailure(statement, WebSocketFailure.notWebSocket(connection: connection.label), connection)
        }
        switch send {
        case .text(let text): return session.encode(.text, context.render(text), fragmentsOf: framesOf)
        case .binary(let bytes): return session.encode(.binary, context.render(bytes), fragmentsOf: framesOf)
        case .frame(let raw):
            let masked = raw.mask ?? (session.role == .client)
            let frame = WebSocketFrame(fin: raw.fin, rsv1: raw.rsv1, rsv2: raw.rsv2, rsv3: raw.rsv3,
                                       opcode: WebSocketOpcode(encodedWebSocketOpcode: raw.opcode)!,
                                       maskKey: masked ? .random() : nil, data: ByteBuffer(bytes: raw.data.map(context.render) ?? []))
            if raw.opcode == 8 { session.closeSent = true }
            return WebSocketFrameCodec().encode(frame)
        case .ping(let bytes): return session.encode(.ping, bytes.map(context.render) ?? [])
        case .pong(let bytes): return session.encode(.pong, bytes.map(context.render) ?? [])
        case .close(let code, let reason):
            var payload: [UInt8] = []
            if let code {
                let value = try context.resolve(code, "a close code", Quantity.integer)
                payload = [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] + (reason.map(context.render) ?? [])
            }
            session.closeSent = true
            return session.encode(.connectionClose, payload)
        }
    }

    /// A WebSocket expectation resolved against `connection`'s session.
    func webSocketRule(_ expectation: WebSocketExpectation, on connection: ProbeConnection, _ statement: Statement) throws -> ExpectationMatcher.Rule {
        guard let session = connection.webSocket else {
            throw StepFailure(statement, WebSocketFailure.notWebSocket(connection: connection.label), connection)
        }
        session.autoPong = context.settings.webSocketAutoPong
        let rule: WebSocketRule
        switch expectation {
        case .text(let match): rule = .text(try context.lineRule(match, statement))
        case .binary(let bytes): rule = .binary(bytes.map(context.pattern))
        case .binaryLength(let count): rule = .binaryLength(try context.resolve(count, "a size", Quantity.size))
        case .ping(let bytes): rule = .ping(bytes.map(context.pattern))
        case .pong(let bytes): rule = .pong(bytes.map(context.pattern))
        case .close(let codes, let orNone, let reason):
            rule = .close(codes: try codes.map { try context.resolve($0, "a close code", Quantity.integer) }, orNone: orNone,
                          reason: try reason.map { try context.compile($0, statement) })
        }
        return .webSocket(rule, session)
    }
}
