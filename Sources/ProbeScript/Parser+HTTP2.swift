/// Parsers for HTTP/2's frames: `send frame TYPE …` and `expect frame TYPE …`.
extension Parser {
    /// The frame types that carry a stream number right after the type.
    private static let streamTypes: Set<UInt8> = [0x0, 0x1, 0x2, 0x3, 0x5, 0x8, 0x9]

    /// Whether the `send frame` at the cursor is an HTTP/2 frame: a type only HTTP/2 has, or
    /// `ping`/`continuation` in a file that speaks HTTP/2 (or written as only HTTP/2 writes them).
    var startsHTTP2Frame: Bool {
        guard let word = current.word else { return false }
        if word == "type" || (HTTP2Names.frameTypes.contains { $0.name == word } && RawWebSocketFrame.opcodes[word] == nil) { return true }
        guard RawWebSocketFrame.opcodes[word] != nil || UInt8(word) != nil else { return speaksHTTP2 }
        guard word == "ping" || word == "continuation" else { return false }
        return speaksHTTP2 || next.word == "ack" || next.word.flatMap(HTTP2Names.number) != nil
    }

    /// The frame type at the cursor: a name, or `type N`, which is `raw`: its payload is the
    /// bytes written, whatever layout the type has.
    mutating func http2FrameType() throws -> (type: UInt8, raw: Bool) {
        let names = HTTP2Names.frameTypes.map(\.name)
        if take("type") {
            let token = try word("a frame type number")
            guard let type = HTTP2Names.number(token.word!), type <= 0xFF else {
                throw failure("'\(token.word!)' is not a frame type (0-255, or 0x00-0xff)", at: token, hint: "send frame type 0x0b flags 0x00 stream 0 hex\"00\"")
            }
            return (UInt8(type), true)
        }
        let name = try keyword(names + ["type"], after: "frame")
        return (HTTP2Names.frameTypes.first { $0.name == name }!.type, false)
    }

    /// How a `type N` frame is read: as a type with no layout (flags, stream, length, bytes).
    private static let rawLayout: UInt8 = 0xFF

    /// A number in decimal or hex, or `{variable}`.
    private mutating func http2Number(_ what: String) throws -> Argument<Int> {
        try argument(what, hint: "a whole number, in decimal or 0x hex", HTTP2Names.number)
    }

    /// An error code by name or number: `PROTOCOL_ERROR`, `cancel`, `0x1`.
    private mutating func http2ErrorCode() throws -> Argument<Int> {
        let token = current
        do {
            return try argument("an error code", hint: "an RFC 9113 §7 name such as PROTOCOL_ERROR or cancel, or a number", HTTP2Names.errorCode)
        } catch let failure as Failure {
            guard let word = token.word, let close = Self.closestErrorName(word) else { throw failure }
            throw self.failure(failure.diagnostic.message, at: token, hint: "did you mean '\(close)'?")
        }
    }

    /// The error code's name `word` is closest to (`CANSEL`: `CANCEL`), if one is close.
    private static func closestErrorName(_ word: String) -> String? {
        Suggestion.closest(to: word, in: HTTP2Names.errorCodes.map { $0.name.lowercased() })?.uppercased()
    }

    /// `CODE [or CODE]...` after `expect connection error` and `expect stream error N`.
    mutating func http2ErrorCodes() throws -> [Argument<Int>] {
        var codes = [try http2ErrorCode()]
        while current.word == "or", next.word != "close" {
            advance()
            codes.append(try http2ErrorCode())
        }
        return codes
    }

    /// `"name"="value"`: a header field to send.
    private mutating func http2Field() throws -> HTTP2Field {
        let name = try string("a header name")
        try keyword(["="], after: "a header name (\"name\"=\"value\")")
        return HTTP2Field(name: name, value: try data("the header's value"))
    }

    /// `TYPE [STREAM] …` after `send frame`: see the language's HTTP/2 section.
    mutating func http2Frame() throws -> HTTP2FrameSend {
        speaksHTTP2 = true
        let typeToken = current
        let (written, raw) = try http2FrameType()
        var frame = HTTP2FrameSend(type: written, payload: .bytes(Template(parts: [])))
        let type = raw ? Self.rawLayout : written
        if Self.streamTypes.contains(type) { frame.stream = try http2Number("a stream number") }
        var pieces: [HTTP2BlockPiece] = []
        var bytes: Template?
        var errorCode: Argument<Int>?
        var lastStream: Argument<Int>?
        var increment: Argument<Int>?
        var settings: [HTTP2Setting] = []
        var dependsOn: Argument<Int>?
        var weight: Argument<Int>?
        var exclusive = false
        let flagNames = HTTP2Names.flags(of: type)
        // The frame's fields end where the send's modifiers begin (`split at 5`, `in chunks of 1`).
        while !atStatementEnd, current.word.flatMap(Grammar.SendModifier.init(rawValue:)) == nil {
            if isData {
                if case .string = current.kind, next.word == "=" {
                    let field = try http2Field()
                    if case .fields(let run) = pieces.last { pieces[pieces.count - 1] = .fields(run + [field]) } else { pieces.append(.fields([field])) }
                } else {
                    let more = try data("the payload")
                    bytes = Template(parts: (bytes?.parts ?? []) + more.parts)
                }
                continue
            }
            let token = current
            guard let word = token.word else { throw failure("expected a field of the frame, found \(token.display)", at: token) }
            if type == 0x4, let equals = word.firstIndex(of: "="), !word.hasPrefix("{") {
                advance()
                settings.append(try http2Setting(word, equals: equals, at: token))
                continue
            }
            if (type == 0x3 || type == 0x7) && errorCode == nil && HTTP2Names.errorCode(word) != nil && word != "last-stream" {
                errorCode = try http2ErrorCode()
                continue
            }
            if type == 0x8, increment == nil, HTTP2Names.number(word) != nil || word.hasPrefix("{") {
                increment = try http2Number("a window size increment")
                continue
            }
            advance()
            if let flag = flagNames.first(where: { $0.name == word }), word != "padded" {
                frame.flags |= flag.bit
                continue
            }
            switch word {
            case "flags": frame.flags |= UInt8(truncatingIfNeeded: try http2Byte("flag bits"))
            case "stream": frame.stream = try http2Number("a stream number")
            case "length": frame.length = try http2Number("the length the header says")
            case "padded" where flagNames.contains { $0.name == "padded" }:
                frame.padding = try count("how many bytes of padding")
                frame.flags |= 0x8
            case "pad-length" where flagNames.contains { $0.name == "padded" }:
                let over = current.word == "over"
                if over { advance() }
                let value = try count(over ? "how far the padding overruns the frame" : "what the Pad Length field says")
                frame.padLength = over ? .over(value) : .exactly(value)
                frame.flags |= 0x8
            case "block" where [0x1, 0x5, 0x9].contains(type):
                if current.word == "table-size" {
                    advance()
                    pieces.append(.tableSizeUpdate(try count("a dynamic table size")))
                } else {
                    pieces.append(.raw(try data("the header block")))
                }
            case "continued" where type == 0x1 || type == 0x5:
                try keyword(["at"], after: "continued")
                frame.continuedAt.append(try count("an offset in the header block"))
                while let next = current.word, HTTP2Names.number(next) != nil || next.hasPrefix("{") {
                    frame.continuedAt.append(try count("an offset in the header block"))
                }
            case "depends-on" where type == 0x1 || type == 0x2: dependsOn = try http2Number("the stream it depends on")
            case "weight" where type == 0x1 || type == 0x2: weight = try count("a weight (1-256)")
            case "exclusive" where type == 0x1 || type == 0x2: exclusive = true
            case "last-stream" where type == 0x7: lastStream = try http2Number("the last stream")
            case "promised" where type == 0x5: frame.promisedStream = try http2Number("the promised stream")
            default:
                var options = ["flags", "stream", "length"] + flagNames.map(\.name) + (flagNames.contains { $0.name == "padded" } ? ["pad-length"] : [])
                switch type {
                case 0x1: options += ["block", "continued", "depends-on", "weight", "exclusive", "\"name\"=\"value\""]
                case 0x2: options += ["depends-on", "weight", "exclusive"]
                case 0x3: options += ["an error code"]
                case 0x5: options += ["block", "continued", "promised", "\"name\"=\"value\""]
                case 0x7: options += ["last-stream", "an error code", "\"debug data\""]
                case 0x9: options += ["block", "\"name\"=\"value\""]
                default: break
                }
                let code = type == 0x3 || type == 0x7 ? Self.closestErrorName(word).map { "did you mean '\($0)'?" } : nil
                throw failure("'\(word)' is not a field of a \(HTTP2Names.typeName(written)) frame", at: token,
                              hint: code ?? Suggestion.hint(for: word, in: options) ?? "it takes " + options.joined(separator: ", "))
            }
        }
        switch type {
        case 0x1, 0x5, 0x9:
            frame.payload = .headerBlock(pieces)
            if let dependsOn { frame.priority = HTTP2Priority(dependsOn: dependsOn, weight: weight ?? Self.defaultWeight(at: typeToken), exclusive: exclusive) }
            if frame.priority != nil { frame.flags |= 0x20 }
        case 0x2:
            guard let dependsOn else { throw failure("a PRIORITY frame needs 'depends-on N'", at: typeToken, hint: "send frame priority 1 depends-on 0 weight 16") }
            frame.payload = .priority(HTTP2Priority(dependsOn: dependsOn, weight: weight ?? Self.defaultWeight(at: typeToken), exclusive: exclusive))
        case 0x3:
            guard let errorCode else { throw failure("a RST_STREAM frame needs an error code", at: typeToken, hint: "send frame rst-stream 1 cancel") }
            frame.payload = .errorCode(errorCode)
        case 0x4:
            frame.payload = .settings(settings)
        case 0x7:
            guard let errorCode else { throw failure("a GOAWAY frame needs an error code", at: typeToken, hint: "send frame goaway last-stream 0 no-error") }
            frame.payload = .goaway(lastStream: lastStream ?? Argument(0, text: "0", at: typeToken.location), code: errorCode, debug: bytes)
        case 0x8:
            guard let increment else { throw failure("a WINDOW_UPDATE frame needs an increment", at: typeToken, hint: "send frame window-update 0 1024") }
            frame.payload = .windowUpdate(increment)
        default:
            frame.payload = .bytes(bytes ?? Template(parts: []))
        }
        if !pieces.isEmpty, ![0x1, 0x5, 0x9].contains(type) {
            throw failure("header fields go in HEADERS, PUSH_PROMISE and CONTINUATION frames", at: typeToken)
        }
        return frame
    }

    private static func defaultWeight(at token: Token) -> Argument<Int> { Argument(16, text: "16", at: token.location) }

    /// A number 0-255 (`flags 0x25`).
    private mutating func http2Byte(_ what: String) throws -> Int {
        let token = try word(what)
        guard let value = HTTP2Names.number(token.word!), value <= 0xFF else {
            throw failure("'\(token.word!)' is not \(what) (0-255, or 0x00-0xff)", at: token)
        }
        return value
    }

    /// `NAME=VALUE` or `0xN=VALUE` in a SETTINGS frame.
    private mutating func http2Setting(_ word: String, equals: String.Index, at token: Token) throws -> HTTP2Setting {
        let name = String(word[..<equals])
        let valueText = String(word[word.index(after: equals)...])
        guard let id = HTTP2Names.setting(name) else {
            let names = HTTP2Names.settings.map(\.name)
            throw failure("'\(name)' is not a SETTINGS parameter", at: token,
                          hint: Suggestion.hint(for: name, in: names) ?? "one of " + names.joined(separator: ", ") + ", or a number such as 0x4")
        }
        let valueAt = token.location.advanced(by: name.count + 1)
        let template = Template.word(valueText, at: valueAt)
        let value: Argument<Int>
        if !template.variables.isEmpty {
            value = Argument(interpolated: template, text: valueText, at: valueAt)
        } else if let number = HTTP2Names.number(valueText), number <= 0xFFFF_FFFF {
            value = Argument(number, text: valueText, at: valueAt)
        } else {
            throw failure("'\(valueText)' is not a SETTINGS value (0 to 2^32-1)", at: token)
        }
        return HTTP2Setting(id: Argument(id, text: name, at: token.location), value: value)
    }

    /// `TYPE [STREAM] [FLAG]... [error CODE [or CODE]...] [last-stream N] [status N]
    /// [header "NAME"="VALUE"|/RE/]... [length N] ["DATA"|hex"…"|/RE/] [or close]` after `expect frame`.
    mutating func http2FrameMatch() throws -> HTTP2FrameMatch {
        speaksHTTP2 = true
        var match = HTTP2FrameMatch(type: try http2FrameType().type)
        if let word = current.word, HTTP2Names.number(word) != nil || word.hasPrefix("{") { match.stream = try http2Number("a stream number") }
        let flagNames = HTTP2Names.flags(of: match.type)
        while !atStatementEnd {
            switch current.kind {
            case .string, .hex, .regex:
                if match.payload != nil { throw failure("the frame's payload is matched twice", at: current) }
                if case .regex = current.kind { match.payload = .regex(try regex()) } else { match.payload = .exact(try data("the expected payload", expected: true)) }
                continue
            default: break
            }
            let token = try word("a field of the frame")
            let word = token.word!
            if let flag = flagNames.first(where: { $0.name == word }) {
                match.flags |= flag.bit
                continue
            }
            switch word {
            case "stream": match.stream = try http2Number("a stream number")
            case "length": match.length = try count("a payload length")
            case "or":
                try keyword(["close"], after: "or")
                match.orClose = true
            case "error" where match.type == 0x3 || match.type == 0x7: match.errorCodes = try http2ErrorCodes()
            case "last-stream" where match.type == 0x7: match.lastStream = try http2Number("the last stream")
            case "status" where match.type == 0x1: match.status = try count("a status code")
            case "header" where match.type == 0x1 || match.type == 0x5:
                let name = try string("a header name")
                try keyword(["="], after: "header \"name\"")
                match.headers.append(HTTP2FieldMatch(name: name, value: try lineMatch()))
            default:
                var options = ["stream", "length", "or close"] + flagNames.map(\.name)
                if match.type == 0x3 || match.type == 0x7 { options.append("error") }
                if match.type == 0x7 { options.append("last-stream") }
                if match.type == 0x1 { options += ["status", "header"] }
                throw failure("'\(word)' is not a field of a \(HTTP2Names.typeName(match.type)) frame", at: token,
                              hint: Suggestion.hint(for: word, in: options) ?? "it takes " + options.joined(separator: ", ") + ", and a \"payload\" or /regex/")
            }
        }
        return match
    }
}
