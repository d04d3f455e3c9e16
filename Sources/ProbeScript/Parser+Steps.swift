/// Parsers for the steps that act on a connection: send, expect, read slowly, assert wire.
extension Parser {
    mutating func parseSend() throws -> SendStep {
        let data: SendStep.Data
        switch current.kind {
        case .string, .hex:
            data = .bytes(try self.data("the bytes to send"))
        default:
            let form = try keyword(Grammar.SendForm.self, after: "send (or a \"string\" or hex\"..\")")
            switch form {
            case .line: data = .line(try string("the line's text"))
            case .message:
                let head = take("head") ? try self.data("the message's head") : nil
                data = .message(try self.data("the message"), head: head)
            case .text: data = .webSocket(.text(try self.data("the text")))
            case .binary: data = .webSocket(.binary(try self.data("the bytes to send")))
            case .ping, .pong:
                let payload = isData ? try self.data("the payload") : nil
                data = .webSocket(form == .ping ? .ping(payload) : .pong(payload))
            case .close:
                let code = atStatementEnd || isData ? nil : try count("a close code")
                data = .webSocket(.close(code: code, reason: isData ? try self.data("a reason") : nil))
            case .frame: data = startsHTTP2Frame ? .http2(.frame(try http2Frame())) : .webSocket(.frame(try rawFrame()))
            case .preface:
                speaksHTTP2 = true
                data = .http2(.preface)
            case .file: data = .file(try string("a file path"))
            case .random: data = .random(try size("a size of random data"))
            }
        }
        var framesOf: Argument<Int>?, chunkSize: Argument<Int>?, splitOffsets: [Argument<Int>] = [], splitSweep = false
        var interval: Argument<Duration>?, rate: Argument<Int>?, untilClosed: UntilClosed?
        while !atStatementEnd {
            let modifierToken = current
            switch try keyword(Grammar.SendModifier.self, after: "the data") {
            case .in:
                if try keyword(["chunks", "frames"], after: "in") == "frames" {
                    try keyword(["of"], after: "in frames")
                    guard data.isWebSocketMessage else {
                        throw failure("'in frames of' splits a WebSocket text or binary message", at: modifierToken, hint: "send text \"hello\" in frames of 2")
                    }
                    framesOf = try size("a frame size")
                    if framesOf?.literal == 0 { throw failure("a frame holds at least 1 byte", at: tokens[position - 1]) }
                } else {
                    try keyword(["of"], after: "in chunks")
                    chunkSize = try size("a chunk size")
                    if chunkSize?.literal == 0 { throw failure("a chunk size must be at least 1", at: tokens[position - 1]) }
                }
            case .split:
                if take("sweep") {
                    splitSweep = true
                } else {
                    try keyword(["at", "sweep"], after: "split")
                    repeat {
                        let offset = try count("a split offset")
                        if let value = offset.literal, value < 1 {
                            throw failure("split offsets start at 1", at: tokens[position - 1])
                        }
                        splitOffsets.append(offset)
                    } while current.kind == .comma && advance().kind == .comma
                }
            case .every: interval = try duration()
            case .until:
                try keyword(["closed"], after: "until")
                untilClosed = UntilClosed(within: take("within") ? try duration() : nil)
            case .at: rate = try argument("a rate", hint: Quantity.rateHint, Quantity.rate)
            }
            let splits = (chunkSize != nil ? 1 : 0) + (splitOffsets.isEmpty ? 0 : 1) + (splitSweep ? 1 : 0)
            if splits > 1 {
                throw failure("choose one of 'in chunks of', 'split at' and 'split sweep'", at: modifierToken)
            }
        }
        if let interval, chunkSize == nil, splitOffsets.isEmpty, !splitSweep, framesOf == nil {
            throw Failure(diagnostic: Diagnostic(at: interval.location, "'every' needs 'in chunks of N', 'split at', 'split sweep' or 'in frames of N' to space out",
                                                 hint: "for example: in chunks of 1 every 10ms"))
        }
        return SendStep(data: data, framesOf: framesOf, chunkSize: chunkSize, splitOffsets: splitOffsets, splitSweep: splitSweep,
                        interval: interval, rate: rate, untilClosed: untilClosed)
    }

    mutating func parseExpect() throws -> StatementKind {
        let expectation: Expectation
        switch current.kind {
        case .string, .hex:
            expectation = .exactBytes(try data("the expected bytes", expected: true))
        default:
            let form = try keyword(Grammar.ExpectForm.self, after: "expect (or a \"string\" or hex\"..\")")
            switch form {
            case .upstream, .downstream:
                let token = tokens[position - 1]
                guard case .expect(let expectation, let within) = try parseExpect() else {
                    throw failure("'expect \(form.rawValue)' watches a proxy's traffic; exit and stdout|stderr are the subjects'", at: token)
                }
                return .expectProxied(ProxyDirection(rawValue: form.rawValue)!, expectation, within: within)
            case .line: expectation = .line(try lineMatch())
            case .message: expectation = try messageExpectation()
            case .lines:
                try keyword(["unordered"], after: "expect lines")
                var lines = [try string("an expected line")]
                while current.kind == .comma {
                    advance()
                    lines.append(try string("an expected line"))
                }
                expectation = .linesUnordered(lines)
            case .bytes:
                let count = try size("a byte count")
                expectation = .byteCount(count, equals: take("=") ? try data("the expected bytes", expected: true) : nil)
            case .until:
                if case .regex = current.kind {
                    let regex = try regex()
                    try keyword(["max"], after: "expect until /RE/")
                    expectation = .untilMatch(regex, max: try size("a maximum size"))
                    break
                }
                let delimiter = try data("a delimiter")
                if delimiter.literalBytes == [] { throw failure("the delimiter cannot be empty", at: tokens[position - 1]) }
                try keyword(["max"], after: "expect until DELIMITER")
                expectation = .until(delimiter, max: try size("a maximum size"))
            case .eventually:
                try keyword(["line"], after: "expect eventually")
                let match = try lineMatch()
                var max: Argument<Int>?
                var unless: RegexLiteral?
                while max == nil || unless == nil, let word = current.word, word == "max" || word == "unless" {
                    advance()
                    if word == "max" { max = try size("a maximum size") } else { unless = try regex() }
                }
                expectation = .eventually(match, max: max, unless: unless)
            case .frame: expectation = .http2(.frame(try http2FrameMatch()))
            case .connection:
                try keyword(["error"], after: "expect connection")
                expectation = .http2(.connectionError(try http2ErrorCodes()))
            case .stream:
                if try keyword(["error", "end"], after: "expect stream") == "end" {
                    expectation = .http2(.streamEnd(try count("a stream number")))
                } else {
                    let stream = try count("a stream number")
                    expectation = .http2(.streamError(stream, try http2ErrorCodes()))
                }
            case .text: expectation = .webSocket(.text(try lineMatch()))
            case .binary:
                if take("bytes") {
                    expectation = .webSocket(.binaryLength(try size("a message length")))
                } else {
                    expectation = .webSocket(.binary(take("any") ? nil : try data("the expected bytes", expected: true)))
                }
            case .ping, .pong:
                let payload = isData ? try data("the payload", expected: true) : nil
                expectation = .webSocket(form == .ping ? .ping(payload) : .pong(payload))
            case .any: expectation = .any
            case .eof: expectation = .eof
            case .reset: expectation = .reset
            case .close:
                // `expect close` is the TCP close; `expect close CODE|any [reason /re/]` a WebSocket close frame.
                guard let word = current.word, word == "any" || Int(word) != nil || word.hasPrefix("{") else {
                    expectation = .close
                    break
                }
                var codes: [Argument<Int>] = []
                var orNone = false
                if !take("any") {
                    codes.append(try count("a close code"))
                    while take("or") {
                        if take("none") { orNone = true; break }
                        codes.append(try count("a close code, or none"))
                    }
                }
                var reason: RegexLiteral?
                if take("reason") { reason = try regex() }
                expectation = .webSocket(.close(codes: codes, orNone: orNone, reason: reason))
            case .nothing:
                try keyword(["for"], after: "expect nothing")
                expectation = .nothing(for: try duration())
            case .stdout, .stderr:
                let stream = SpawnStep.OutputStream(rawValue: form.rawValue)!
                let name = try name("a subject name")
                let awaited: OutputExpectation.Awaited
                switch try keyword(Grammar.OutputForm.self, after: "expect \(stream.rawValue) NAME") {
                case .eof: awaited = .eof
                case .line: awaited = .line(try lineMatch())
                case .eventually:
                    try keyword(["line"], after: "expect \(stream.rawValue) NAME eventually")
                    awaited = .eventually(try lineMatch())
                }
                let within = take("within") ? try duration() : nil
                return .expectOutput(OutputExpectation(name: name, stream: stream, awaited: awaited, within: within))
            case .exit:
                return .expectExit(try parseExitExpectation())
            }
        }
        var within: Argument<Duration>?
        if !atStatementEnd {
            try keyword(["within"], after: "the expectation")
            within = try duration()
        }
        if case .nothing = expectation, within != nil {
            throw failure("'expect nothing for D' already says how long; drop 'within'", at: tokens[position - 2])
        }
        return .expect(expectation, within: within)
    }

    /// `OPCODE ["data"] [fin on|off] [mask on|off] [rsv1|rsv2|rsv3 on|off]` after `send frame`.
    mutating func rawFrame() throws -> RawWebSocketFrame {
        let token = try word("an opcode (text, binary, continuation, ping, pong, close or 0-15)")
        guard let opcode = RawWebSocketFrame.opcodes[token.word!] ?? UInt8(token.word!).flatMap({ $0 < 16 ? $0 : nil }) else {
            throw failure("'\(token.word!)' is not an opcode", at: token, hint: "text, binary, continuation, ping, pong, close, or a number 0-15")
        }
        var frame = RawWebSocketFrame(opcode: opcode, data: isData ? try data("the payload") : nil)
        while let bit = current.word, ["fin", "mask", "rsv1", "rsv2", "rsv3"].contains(bit) {
            advance()
            let on = try keyword(["on", "off"], after: bit) == "on"
            switch bit {
            case "fin": frame.fin = on
            case "mask": frame.mask = on
            case "rsv1": frame.rsv1 = on
            case "rsv2": frame.rsv2 = on
            default: frame.rsv3 = on
            }
        }
        return frame
    }

    /// `MATCH in 1 segment|record` after `assert wire … line` or `… message`.
    mutating func matchInOneSegment(_ what: String) throws -> LineMatch {
        let match = try lineMatch()
        try inOneSegment(after: what)
        return match
    }

    /// `in 1 segment` (or `record`), after what is to arrive whole.
    mutating func inOneSegment(after what: String) throws {
        try keyword(["in"], after: what)
        let countToken = current
        guard try count("a segment count").literal == 1 else { throw failure("only 'in 1 segment' is supported", at: countToken) }
        try keyword(["segment", "segments", "record"], after: "in 1")
    }

    /// True when the next token is a "string" or hex"..".
    var isData: Bool {
        switch current.kind {
        case .string, .hex: return true
        default: return false
        }
    }

    /// What follows `expect message` (and `on message`): `[head H] FORM`.
    mutating func messageExpectation() throws -> Expectation {
        let head = take("head") ? try data("the message's head", expected: true) : nil
        if take("bytes") { return .messageOfLength(try size("a message length"), head: head) }
        if case .hex(let template) = current.kind {
            return .message(.exact(try hex(template, "the expected message", expected: true)), head: head)
        }
        return .message(try lineMatch(), head: head)
    }

    /// `on line|message … [send …]`, `on every D send …`, `on off`.
    mutating func parseOn() throws -> OnRule {
        switch try keyword(Grammar.OnForm.self, after: "on") {
        case .off: return .off
        case .every:
            let interval = try duration()
            try keyword(["send"], after: "on every D")
            return .every(interval, send: try ruleSend())
        case .line, .message:
            let form = tokens[position - 1].word
            let expectation: Expectation = form == "line" ? .line(try lineMatch()) : try messageExpectation()
            guard take("send") else { return .reading(expectation, answer: nil) }
            return .reading(expectation, answer: try ruleSend())
        }
    }

    /// A rule's send: one line, message or byte string, with no modifiers.
    private mutating func ruleSend() throws -> SendStep {
        let start = current
        let step = try parseSend()
        switch step.data {
        case .bytes, .line, .message: break
        default: throw failure("a rule sends a line, a message or bytes", at: start)
        }
        guard step == SendStep(data: step.data) else { throw failure("a rule's send takes no modifiers (split, every, in chunks of…)", at: start) }
        return step
    }

    mutating func lineMatch() throws -> LineMatch {
        switch current.kind {
        case .string: return .exact(try repetition(of: try string("the expected line")))
        case .regex: return .regex(try regex())
        default:
            if try keyword(Grammar.LineForm.self, after: "expect line (or a \"string\" or /regex/)") == .any { return .any }
            if case .regex = current.kind { return .regex(try regex()) }
            return .contains(try string("the text the line contains"))
        }
    }

    mutating func parseExitExpectation() throws -> ExitExpectation {
        var expectation = ExitExpectation(name: try name("a subject name"), code: nil, within: nil)
        while !atStatementEnd {
            if try keyword(["code", "within"], after: "expect exit NAME") == "code" {
                expectation.code = try count("an exit code")
            } else {
                expectation.within = try duration()
            }
        }
        return expectation
    }

    mutating func parseSlowRead() throws -> SlowRead {
        try keyword(["slowly"], after: "read")
        let bytes = try size("a number of bytes per read")
        if bytes.literal == 0 { throw failure("each slow read takes at least 1 byte", at: tokens[position - 1]) }
        // `1 byte`, `64 bytes`, or a size as everywhere else: `16KiB`.
        if !take("byte") { _ = take("bytes") }
        try keyword(["every"], after: "read slowly SIZE")
        let interval = try duration()
        let stop: SlowRead.Stop
        switch try keyword(Grammar.SlowReadStop.self, after: "read slowly N bytes every D") {
        case .for: stop = .after(try duration())
        case .until:
            try keyword(["eof"], after: "until")
            stop = .eof
        case .total:
            stop = .total(try size("a total size"))
            if !take("byte") { _ = take("bytes") }
        }
        return SlowRead(bytesPerRead: bytes, interval: interval, stop: stop)
    }

    mutating func parseWireAssertion() throws -> WireAssertion {
        try keyword(["wire", "tls", "copies", "latency"], after: "assert")
        let direction: WireAssertion.Direction
        if try keyword(["from", "to"], after: "assert wire") == "to" {
            direction = try keyword(["client", "server"], after: "assert wire to") == "client" ? .toClient : .toServer
        } else {
            direction = WireAssertion.Direction(rawValue: try keyword(["peer", "probe", "client", "server"], after: "assert wire from"))!
        }
        let property: WireAssertion.Property
        switch try keyword(Grammar.WireProperty.self, after: "assert wire \(direction.phrase)") {
        case .terminator: property = .terminator(try terminator())
        case .lines:
            try keyword(["unsplit"], after: "lines")
            property = .linesUnsplit
        case .line: property = .lineInOneSegment(try matchInOneSegment("the line"))
        case .records: property = .records(try comparison(), try count("a record count"))
        case .messages:
            try keyword(["unsplit"], after: "messages")
            property = .messagesUnsplit
        case .frames:
            try keyword(["unsplit"], after: "frames")
            property = .framesUnsplit
        case .frame:
            let type = try http2FrameType().type
            try inOneSegment(after: "the frame")
            property = .frameInOneSegment(type: type)
        case .message: property = .messageInOneSegment(try matchInOneSegment("the message"))
        case .masked: property = .masked
        case .unmasked: property = .unmasked
        case .segments: property = .segments(try comparison(), try count("a segment count"))
        case .retransmissions: property = .retransmissions(try comparison(), try count("a segment count"))
        case .maxSegment: property = .maxSegment(try comparison(), try size("a segment size"))
        case .bytes: property = .bytes(try comparison(), try size("a byte count"))
        case .fin: property = .fin
        case .rst: property = .rst
        case .zeroWindow: property = .zeroWindow
        case .no:
            property = try keyword(["fin", "rst"], after: "no") == "fin" ? .noFin : .noRst
        }
        return WireAssertion(direction: direction, property: property)
    }
}
