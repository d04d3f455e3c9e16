/// Parsers for the header, subject and connection statements.
extension Parser {
    mutating func parseSetting() throws -> Setting {
        switch try keyword(Grammar.SettingWord.self, after: "set") {
        case .timeout: return .timeout(try duration())
        case .deadline: return .deadline(try duration())
        case .maxLine: return .maxLine(try size("a maximum line length"))
        case .capture: return .capture(CaptureMode(rawValue: try keyword(CaptureMode.names, after: "set capture"))!)
        case .unread: return .unread(UnreadPolicy(rawValue: try keyword(UnreadPolicy.names, after: "set unread"))!)
        case .cutOff: return .cutOff(CutOffPolicy(rawValue: try keyword(CutOffPolicy.names, after: "set cut-off"))!)
        case .websocket:
            try keyword(["auto-pong"], after: "set websocket")
            return .webSocketAutoPong(try keyword(["on", "off"], after: "set websocket auto-pong") == "on")
        case .http2:
            let what = try keyword(["handshake", "auto-ack"], after: "set http2")
            speaksHTTP2 = true
            let on = try keyword(["on", "off"], after: "set http2 \(what)") == "on"
            return what == "handshake" ? .http2Handshake(on) : .http2AutoAck(on)
        case .framing: return .framing(try messageFraming())
        case .maxMessage:
            let size = try size("a maximum message size")
            if let value = size.literal, !(1...Self.largestMessage).contains(value) {
                throw failure("max-message takes 1 byte to 1GiB", at: tokens[position - 1], hint: "set max-message 1MiB")
            }
            return .maxMessage(size)
        case .terminator: return .terminator(try terminator())
        }
    }

    /// The largest `set max-message`: 1 GiB.
    static let largestMessage = 1 << 30

    /// `lines`, `length 1|2|3|4|8|{w} [big|little] [after N] [adjust ±K]` or `varint [after N]`.
    mutating func messageFraming() throws -> FramingSetting {
        var setting: LengthSetting
        switch try keyword(Grammar.FramingForm.self, after: "set framing") {
        case .lines: return .lines
        case .varint: setting = LengthSetting(width: nil)
        case .length:
            let width = try count("a length field width (1, 2, 3, 4 or 8 bytes)")
            if let value = width.literal, !LengthHeader.widths.contains(value) {
                throw failure("a length field is 1, 2, 3, 4 or 8 bytes, not '\(width.text)'", at: tokens[position - 1], hint: "set framing length 2")
            }
            setting = LengthSetting(width: width)
        }
        while !atStatementEnd {
            let token = current
            let option = try keyword(Grammar.LengthOption.self, after: "set framing \(setting.width == nil ? "varint" : "length W")")
            switch option {
            case .big, .little:
                guard setting.width != nil else { throw failure("a varint has no byte order", at: token) }
                setting.bigEndian = option == .big
            case .after:
                let after = try count("a number of head bytes")
                if let value = after.literal, value > LengthSetting.longestHead {
                    throw failure("at most \(LengthSetting.longestHead) head bytes come before a length field", at: tokens[position - 1])
                }
                setting.after = after
            case .adjust:
                guard setting.width != nil else { throw failure("a varint length is not adjusted", at: token, hint: "adjust goes with set framing length W") }
                setting.adjust = try argument("a signed whole number such as -4", hint: "adjust -4 when the length counts its own 4 bytes", Quantity.signedInteger)
            }
        }
        return .length(setting)
    }

    mutating func terminator() throws -> Terminator {
        if case .string(let template) = current.kind {
            let token = advance()
            guard let bytes = template.literalBytes, !bytes.isEmpty else {
                throw failure("a terminator must be a non-empty string without variables", at: token)
            }
            return .custom(bytes)
        }
        return Terminator(name: try keyword(Terminator.names, after: "terminator"))!
    }

    mutating func parseVariable() throws -> StatementKind {
        let name = try name("a variable name")
        try keyword(["="], after: "var \(name.text)")
        if case .string(let template) = current.kind {
            advance()
            return .variable(name, .text(template))
        }
        let token = try word("a value (a \"string\", a word or free-port)")
        if token.word == "free-port" { return .variable(name, .freePort) }
        return .variable(name, .text(Template.word(token.word!, at: token.location)))
    }

    mutating func parseSpawn() throws -> SpawnStep {
        let name = try name("a subject name")
        let command = try string("a command")
        var readiness: SpawnStep.Readiness?
        var readinessWithin: Argument<Duration>?
        var withStdin = false
        var workingDirectory: Template?
        var network: Name?
        var unlessGiven: Name?
        var environment: [(key: String, value: Template)] = []
        while !atStatementEnd {
            if current.word == "within", readiness == nil {
                throw failure("'within' sets how long to wait for readiness: put it after 'ready on HOST:PORT' or 'ready when stdout /re/'", at: current,
                              hint: "spawn NAME \"COMMAND\" ready on HOST:PORT within D")
            }
            switch try keyword(Grammar.SpawnOption.self, after: "the spawn command") {
            case .ready:
                if take("on") {
                    var addresses = [try address()]
                    while current.kind == .comma {
                        advance()
                        addresses.append(try address())
                    }
                    readiness = .listening(addresses)
                } else {
                    try keyword(["when"], after: "ready (ready on HOST:PORT or ready when stdout /re/)")
                    let stream = SpawnStep.OutputStream(rawValue: try keyword(["stdout", "stderr"], after: "ready when"))!
                    readiness = .output(stream: stream, try regex())
                }
                if take("within") { readinessWithin = try duration() }
            case .with:
                try keyword(["stdin"], after: "with")
                withStdin = true
            case .cwd:
                workingDirectory = try string("a directory")
            case .in:
                network = try self.name("a network name")
            case .unless:
                try keyword(["given"], after: "unless")
                unlessGiven = try self.name("a variable name")
            case .env:
                repeat {
                    environment.append(try environmentEntry())
                } while current.word.map { $0.contains("=") } ?? false
            }
        }
        return SpawnStep(name: name, command: command, readiness: readiness, readinessWithin: readinessWithin,
                         withStdin: withStdin, workingDirectory: workingDirectory, network: network,
                         unlessGiven: unlessGiven, environment: environment)
    }

    /// `KEY=VALUE` or `KEY="a value"`.
    mutating func environmentEntry() throws -> (key: String, value: Template) {
        let token = try word("KEY=VALUE")
        let text = token.word!
        guard let equals = text.firstIndex(of: "="), text.startIndex != equals else {
            throw failure("expected KEY=VALUE after env, found '\(text)'", at: token)
        }
        let key = String(text[..<equals])
        let valueText = String(text[text.index(after: equals)...])
        if valueText.isEmpty, current.isAdjacent, case .string(let template) = current.kind {
            advance()
            return (key, template)
        }
        return (key, Template.word(valueText, at: token.location.advanced(by: key.count + 1)))
    }

    mutating func parseInput() throws -> SubjectInput {
        let name = try name("a subject name")
        switch current.kind {
        case .string, .hex: return SubjectInput(name: name, data: .bytes(try data("the bytes to write")))
        default:
            if try keyword(["line", "eof"], after: "input NAME (or a \"string\" or hex\"..\")") == "eof" {
                return SubjectInput(name: name, data: .eof)
            }
            return SubjectInput(name: name, data: .line(try string("the line to write")))
        }
    }

    static let signals = ["TERM", "KILL", "INT", "HUP", "QUIT", "USR1", "USR2", "STOP", "CONT"]

    mutating func parseKill() throws -> StatementKind {
        let name = try name("a subject name")
        guard !atStatementEnd else { return .kill(name, signal: nil) }
        let token = try word("a signal")
        var signal = token.word!.uppercased()
        if signal.hasPrefix("SIG") { signal.removeFirst(3) }
        guard Parser.signals.contains(signal) else {
            throw failure("unknown signal '\(token.word!)'", at: token,
                          hint: Suggestion.hint(for: signal, in: Parser.signals) ?? "signals: " + Parser.signals.joined(separator: " "))
        }
        return .kill(name, signal: signal)
    }

    /// The word after `from`: an address, an address and port, or a range.
    mutating func sourceAddress() throws -> Argument<SourceAddress> {
        let token = try word("an address to connect from")
        let text = token.word!
        let template = Template.word(text, at: token.location)
        if !template.variables.isEmpty { return Argument(interpolated: template, text: text, at: token.location) }
        switch SourceAddress.parse(text) {
        case .success(let source): return Argument(source, text: text, at: token.location)
        case .failure(let error): throw failure(error.message, at: token, hint: error.hint)
        }
    }

    mutating func parseConnect() throws -> ConnectStep {
        var name: Name?
        if let text = current.word, !next.endsStatement, let following = next.word,
           Grammar.ConnectOption(rawValue: following) == nil, Identifier.isValid(text) {
            name = try self.name("a connection name")
        }
        var step: ConnectStep
        if let text = current.word, let url = SchemeURL.split(text, schemes: ["ws", "wss", "h2", "h2s"], at: current.location) {
            let token = advance()
            let template = Template.word(url.address, at: url.addressAt)
            let address: Argument<Address>
            if template.variables.isEmpty {
                guard let parsed = Address.parse(url.address) else {
                    throw failure("'\(url.address)' in '\(text)' is not HOST:PORT", at: token, hint: "connect \(url.scheme)://127.0.0.1:{port}/")
                }
                address = Argument(parsed, text: url.address, at: url.addressAt)
            } else {
                address = Argument(interpolated: template, text: url.address, at: url.addressAt)
            }
            step = ConnectStep(name: name, address: address)
            if url.scheme.hasPrefix("h2") {
                step.http2 = HTTP2Target(secure: url.scheme == "h2s", path: url.path)
                speaksHTTP2 = true
            } else {
                step.webSocket = WebSocketTarget(secure: url.scheme == "wss", path: url.path)
            }
        } else {
            step = ConnectStep(name: name, address: try address())
        }
        while !atStatementEnd {
            switch try keyword(Grammar.ConnectOption.self, after: "the address") {
            case .protocol, .header:
                guard step.webSocket != nil else {
                    throw failure("'\(tokens[position - 1].word!)' is a WebSocket option: connect ws://HOST:PORT/PATH", at: tokens[position - 1])
                }
                if tokens[position - 1].word == "protocol" {
                    step.webSocket?.protocols.append(try string("a subprotocol"))
                } else {
                    step.webSocket?.headers.append(try string("a header, \"Name: value\""))
                }
            case .from: step.source = try sourceAddress()
            case .timeout: step.timeout = try duration()
            case .rcvbuf: step.receiveBuffer = try size("a receive buffer size")
            case .sndbuf: step.sendBuffer = try size("a send buffer size")
            case .tls: step.tls = try tlsOptions(TLSOptions.clientOptions, after: "connect ... tls")
            case .expect:
                let failures = ConnectStep.Failure.allCases.map(\.rawValue)
                step.expectedFailure = ConnectStep.Failure(rawValue: try keyword(failures, after: "connect ... expect"))
                if step.expectedFailure == .tlsFailure, step.tls == nil {
                    throw failure("'expect tls-failure' needs 'tls' before it", at: tokens[position - 1], hint: "connect HOST:PORT tls ca \"ca.pem\" expect tls-failure")
                }
            }
        }
        return step
    }
}
