import NIOCore
import ProbeFraming
import ProbeResults
import ProbeScript

/// HTTP/2 (RFC 9113) on a connection, for the scenario or `parallel` copy that `context` is:
/// the session and handshake of `connect h2://…`, the bytes of `send preface` and `send frame`,
/// and the rules `expect frame`, `expect connection error` and `expect stream error` judge by.
/// It has no statements of its own: the connection steps call it.
final class HTTP2Steps {
    private unowned let context: any StepContext
    /// Each HTTP/2 connection's header encoding, one a connection as h2spec keeps it: fields go
    /// into its dynamic table, so a later block refers to them as the peer's decoder follows.
    /// Made anew when a connection gets its HTTP/2 layer.
    private var encoders: [ObjectIdentifier: HTTP2HeaderEncoder] = [:]

    init(context: any StepContext) {
        self.context = context
    }

    /// The SETTINGS the handshake sends: h2spec's, an initial window of 65,535.
    private static let handshakeSettings = HTTP2Frame(type: 0x4, flags: 0, stream: 0, payload: [0x00, 0x04] + HTTP2Frame.bigEndian(65535))

    /// `connect h2://…`: gives `connection` its HTTP/2 layer; unless `set http2 handshake
    /// off`, sends the preface and SETTINGS and waits for the peer's SETTINGS (acked) and its
    /// ACK of ours. `timeout` is the connect's, counted from `started`.
    func start(_ connection: ProbeConnection, _ target: HTTP2Target, address: String, timeout: Duration, started: RunClock.Instant,
               _ statement: Statement) async throws {
        let url = "h2\(target.secure ? "s" : "")://\(address)" + target.path.renderString(context.lookup)
        try await open(connection, asServer: false, named: "HTTP/2 (\(url))", timeout: timeout, started: started, statement)
    }

    /// `accept … http2`: the server's side. The layer takes the client's preface first;
    /// unless `set http2 handshake off`, SETTINGS go out once the client's SETTINGS has come,
    /// and the same exchange is awaited.
    func accept(_ connection: ProbeConnection, timeout: Duration, started: RunClock.Instant, _ statement: Statement) async throws {
        try await open(connection, asServer: true, named: "HTTP/2 (as the server)", timeout: timeout, started: started, statement)
    }

    private func open(_ connection: ProbeConnection, asServer: Bool, named: String, timeout: Duration, started: RunClock.Instant,
                      _ statement: Statement) async throws {
        let (maxPayload, autoAck, handshake) = (max(context.settings.maxMessage, 16_384), context.settings.http2AutoAck, context.settings.http2Handshake)
        let announced = HTTP2AnnouncedTableSize()
        encoders[ObjectIdentifier(connection)] = HTTP2HeaderEncoder(following: announced)
        let session = try await connection.channel.eventLoop.submit {
            let session = NIOLoopBound(HTTP2Session(channel: connection.channel, maxPayload: maxPayload, asServer: asServer,
                                                    countSent: connection.sentCounter, announcesTableSize: announced.announce),
                                       eventLoop: connection.channel.eventLoop)
            session.value.autoAck = autoAck
            if asServer, handshake { session.value.openingSettings = Self.handshakeSettings }
            connection.handler.layer = session.value
            return session
        }.get()
        connection.http2 = session
        guard handshake else {
            return context.record(statement, "\(connection.label): \(named), no handshake (set http2 handshake off)")
        }
        let (wait, _) = context.limit(max(timeout - (context.clock.now - started), .zero))
        // As the server, the session sends its SETTINGS when the client's comes.
        if !asServer, try await !connection.send(ByteBuffer(bytes: HTTP2Frame.preface + Self.handshakeSettings.encoded()), timeout: wait).get() {
            throw StepFailure(statement, HTTP2Failure.handshakeFailed("the peer does not read the preface"), connection)
        }
        let matcher = ExpectationMatcher(.http2(HTTP2Rule(.handshake(asServer: asServer), autoAck: autoAck), session), framing: context.settings.lineFraming)
        switch try await connection.expect(matcher, timeout: wait.timeAmount).get() {
        case .matched(_, let detail):
            context.record(statement, "\(connection.label): \(named): \(detail)")
            try await definePeerSettings(of: session, on: connection)
        case .failed(let why): throw StepFailure(statement, HTTP2Failure.handshakeFailed(why), connection)
        case .timedOut(let waitingFor, _, _): throw StepFailure(statement, HTTP2Failure.handshakeTimedOut(within: timeout, waitingFor: waitingFor), connection, waited: wait)
        }
    }

    /// Sets `{http2.NAME}` for each SETTINGS parameter: what the peer's SETTINGS said, else its
    /// initial value; a parameter with neither is left undefined.
    private func definePeerSettings(of session: NIOLoopBound<HTTP2Session>, on connection: ProbeConnection) async throws {
        let peer = try await connection.channel.eventLoop.submit { session.value.peerSettings }.get()
        for (name, id) in HTTP2Names.settings {
            context.variables["http2." + name] = (peer[id] ?? HTTP2Names.initialValues[id]).map(String.init)
        }
    }

    /// The bytes of `send preface` or `send frame …` on `connection`.
    func bytes(_ send: HTTP2Send, on connection: ProbeConnection, _ statement: Statement) throws -> [UInt8] {
        guard connection.http2 != nil else { throw StepFailure(statement, HTTP2Failure.notHTTP2(connection: connection.label), connection) }
        guard case .frame(let written) = send else { return HTTP2Frame.preface }
        func value(_ argument: Argument<Int>, _ field: String, _ range: ClosedRange<Int>) throws -> Int {
            let value = try context.resolve(argument, field, HTTP2Names.number)
            guard range.contains(value) else { throw StepFailure(statement, HTTP2Failure.outOfRange(field: field, value: value, range: range), connection) }
            return value
        }
        let word = 0...0xFFFF_FFFF
        var payload: [UInt8]
        switch written.payload {
        case .bytes(let template): payload = context.render(template)
        case .headerBlock(let pieces):
            payload = try pieces.flatMap { piece -> [UInt8] in
                switch piece {
                case .fields(let fields): return try encode(fields, on: connection, statement)
                case .raw(let template): return context.render(template)
                case .tableSizeUpdate(let size): return try tableSizeUpdate(to: value(size, "dynamic table size", 0...Int(UInt32.max)), on: connection, statement)
                }
            }
        case .priority(let priority): payload = try self.priority(priority, value)
        case .errorCode(let code): payload = HTTP2Frame.bigEndian(UInt32(try value(code, "error code", word)))
        case .settings(let settings):
            payload = try settings.flatMap { setting -> [UInt8] in
                let id = try value(setting.id, "SETTINGS parameter", 0...0xFFFF)
                return [UInt8(id >> 8), UInt8(id & 0xFF)] + HTTP2Frame.bigEndian(UInt32(try value(setting.value, "SETTINGS value", word)))
            }
        case .goaway(let last, let code, let debug):
            payload = HTTP2Frame.bigEndian(UInt32(try value(last, "last stream", word))) + HTTP2Frame.bigEndian(UInt32(try value(code, "error code", word)))
                + (debug.map(context.render) ?? [])
        case .windowUpdate(let increment): payload = HTTP2Frame.bigEndian(UInt32(try value(increment, "window size increment", word)))
        }
        var continuations: [[UInt8]] = []
        if !written.continuedAt.isEmpty {
            let offsets = try written.continuedAt.map { try value($0, "offset in the header block", 0...payload.count) }
            for (previous, offset) in zip(offsets, offsets.dropFirst()) where offset < previous {
                throw StepFailure(statement, HTTP2Failure.outOfRange(field: "offset in the header block", value: offset, range: previous...payload.count), connection)
            }
            let cuts = [0] + offsets + [payload.count]
            continuations = (1..<cuts.count - 1).map { Array(payload[cuts[$0]..<cuts[$0 + 1]]) }
            payload = Array(payload[..<cuts[1]])
        }
        if let priority = written.priority { payload = try self.priority(priority, value) + payload }
        if let promised = written.promisedStream { payload = HTTP2Frame.bigEndian(UInt32(try value(promised, "promised stream", word))) + payload }
        if written.padding != nil || written.padLength != nil {
            let count = try written.padding.map { try value($0, "padding", 0...255) } ?? 0
            payload += [UInt8](repeating: 0, count: count)
            let field: Int
            switch written.padLength {
            case nil: field = count
            case .exactly(let length)?: field = try value(length, "pad length", 0...255)
            case .over(let overrun)?: field = payload.count + (try value(overrun, "overrun of the padding", 0...255))
            }
            // The field is one byte: an overrun past it cannot be written.
            guard field <= 255 else { throw StepFailure(statement, HTTP2Failure.outOfRange(field: "pad length", value: field, range: 0...255), connection) }
            payload = [UInt8(field)] + payload
        }
        // A length field holds 24 bits: a longer payload has no header that says it, unless the step writes one that lies.
        if written.length == nil, payload.count > 0xFF_FFFF {
            throw StepFailure(statement, HTTP2Failure.outOfRange(field: "payload length", value: payload.count, range: 0...0xFF_FFFF), connection)
        }
        let stream = try written.stream.map { try value($0, "stream", word) } ?? 0
        let endHeaders = continuations.isEmpty ? 0 : written.flags & 0x4
        let frame = HTTP2Frame(type: written.type, flags: written.flags & ~endHeaders, stream: UInt32(stream), payload: payload)
        let continued = continuations.enumerated().flatMap { index, fragment in
            HTTP2Frame(type: 0x9, flags: index == continuations.count - 1 ? endHeaders : 0, stream: UInt32(stream), payload: fragment).encoded()
        }
        return frame.encoded(length: try written.length.map { try value($0, "length", 0...0xFF_FFFF) }) + continued
    }

    /// PRIORITY's five bytes: E and the stream it depends on, and the weight less one.
    private func priority(_ priority: HTTP2Priority, _ value: (Argument<Int>, String, ClosedRange<Int>) throws -> Int) throws -> [UInt8] {
        let dependsOn = UInt32(try value(priority.dependsOn, "depends-on", 0...0x7FFF_FFFF)) | (priority.exclusive ? 0x8000_0000 : 0)
        return HTTP2Frame.bigEndian(dependsOn) + [UInt8(try value(priority.weight, "weight", 1...256) - 1)]
    }

    /// Header fields in HPACK with the connection's encoding (`HTTP2HeaderEncoder`).
    private func encode(_ fields: [HTTP2Field], on connection: ProbeConnection, _ statement: Statement) throws -> [UInt8] {
        let id = ObjectIdentifier(connection)
        var encoder = encoders[id] ?? HTTP2HeaderEncoder()
        do {
            let block = try encoder.encode(fields.map { (name: $0.name.renderString(context.lookup), value: $0.value.renderString(context.lookup)) })
            encoders[id] = encoder
            return block
        } catch {
            throw StepFailure(statement, HTTP2Failure.unencodable("\(error)"), connection)
        }
    }

    /// `block table-size N`: a dynamic table size update to `size`. The peer's table shrinks
    /// with it, so the connection's encoder starts again with a table of at most `size`: what
    /// it indexes from then on the peer keeps too (the newest entries go last).
    private func tableSizeUpdate(to size: Int, on connection: ProbeConnection, _ statement: Statement) throws -> [UInt8] {
        do {
            let update = try HTTP2HeaderEncoder.sizeUpdate(to: size)
            let id = ObjectIdentifier(connection)
            var encoder = encoders[id] ?? HTTP2HeaderEncoder()
            if size < encoder.tableSize {
                encoder.restart(tableSize: size, signalled: true)
                encoders[id] = encoder
            }
            return update
        } catch {
            throw StepFailure(statement, HTTP2Failure.unencodable("\(error)"), connection)
        }
    }

    /// An HTTP/2 expectation resolved against `connection`'s session.
    func rule(_ expectation: HTTP2Expectation, on connection: ProbeConnection, _ statement: Statement) throws -> ExpectationMatcher.Rule {
        guard let session = connection.http2 else { throw StepFailure(statement, HTTP2Failure.notHTTP2(connection: connection.label), connection) }
        let codes = { (codes: [Argument<Int>]) in try codes.map { try self.context.resolve($0, "an error code", HTTP2Names.errorCode) } }
        let want: HTTP2Rule.Want
        switch expectation {
        case .connectionError(let written): want = .connectionError(codes: try codes(written))
        case .streamError(let stream, let written):
            want = .streamError(stream: try context.resolve(stream, "a stream", HTTP2Names.number), codes: try codes(written))
        case .streamEnd(let stream): want = .streamEnd(stream: try context.resolve(stream, "a stream", HTTP2Names.number))
        case .frame(let match):
            let headers = try match.headers.map { (name: $0.name.renderString(context.lookup), value: try context.lineRule($0.value, statement)) }
            want = .frame(HTTP2Rule.FrameWant(
                type: match.type, stream: try match.stream.map { try context.resolve($0, "a stream", HTTP2Names.number) }, flags: match.flags,
                codes: try codes(match.errorCodes), lastStream: try match.lastStream.map { try context.resolve($0, "a stream", HTTP2Names.number) },
                status: try match.status.map { try context.resolve($0, "a status", Quantity.integer) }, headers: headers,
                payload: try match.payload.map { try context.lineRule($0, statement) },
                length: try match.length.map { try context.resolve($0, "a length", HTTP2Names.number) }, orClose: match.orClose))
        }
        return .http2(HTTP2Rule(want, autoAck: context.settings.http2AutoAck), session)
    }
}
