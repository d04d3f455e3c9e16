/// Parses the tokens of one file into statements. Errors are collected, never thrown out:
/// after a bad statement the parser skips to the next one and goes on.
package struct Parser {
    struct Failure: Error { var diagnostic: Diagnostic }

    var tokens: [Token]
    var position = 0
    var diagnostics: [Diagnostic] = []
    let source: SourceFile
    var title: Template?
    var tags: [String] = []
    /// The file speaks HTTP/2 (an `h2://` connect, `set http2`, `send preface`): `send frame
    /// ping` and `continuation` are HTTP/2 frames from then on, not WebSocket ones.
    var speaksHTTP2 = false
    /// The file's regexes, compiled before parsing.
    let regexProblems: RegexProblems

    init(source: SourceFile) {
        var lexer = Lexer(source)
        self.tokens = lexer.tokenize()
        self.diagnostics = lexer.diagnostics
        self.source = source
        self.regexProblems = RegexProblems(tokens)
    }

    /// Parses a whole file.
    package static func parse(_ source: SourceFile) -> ParsedFile {
        var parser = Parser(source: source)
        let statements = parser.parseStatements(blockOpenedAt: nil)
        return ParsedFile(source: source, title: parser.title, tags: parser.tags,
                          statements: statements, diagnostics: parser.diagnostics)
    }

    // MARK: - Token cursor

    var current: Token { tokens[position] }

    var next: Token { tokens[min(position + 1, tokens.count - 1)] }

    @discardableResult
    mutating func advance() -> Token {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    var atStatementEnd: Bool { current.endsStatement }

    func failure(_ message: String, at token: Token, hint: String? = nil) -> Failure {
        Failure(diagnostic: Diagnostic(at: token.location, length: token.length, message, hint: hint))
    }

    /// The next token as a bare word, described as `what` when it is missing.
    mutating func word(_ what: String) throws -> Token {
        guard current.word != nil else {
            throw failure("expected \(what), found \(current.display)", at: current)
        }
        return advance()
    }

    /// Consumes one of `keywords`; otherwise fails with the list and a did-you-mean.
    @discardableResult
    mutating func keyword(_ keywords: [String], after context: String) throws -> String {
        guard let text = current.word, keywords.contains(text) else {
            let list = keywords.count == 1 ? "'\(keywords[0])'" : "one of " + keywords.map { "'\($0)'" }.joined(separator: ", ")
            throw failure("expected \(list) after \(context), found \(current.display)", at: current,
                          hint: Suggestion.hint(for: current.word, in: keywords))
        }
        advance()
        return text
    }

    /// Consumes `keyword` when it is next.
    mutating func take(_ keyword: String) -> Bool {
        guard current.word == keyword else { return false }
        advance()
        return true
    }

    mutating func name(_ what: String) throws -> Name {
        let token = try word(what)
        guard let text = token.word, Identifier.isValid(text) else {
            throw failure("'\(token.word ?? "")' is not valid as \(what)", at: token,
                          hint: "names start with a letter or _ and hold letters, digits, _ and -")
        }
        return Name(text, at: token.location)
    }

    /// A quoted string or hex string, repeated when `* N` follows; `??` in hex (any byte) only
    /// where bytes are `expected`.
    mutating func data(_ what: String, expected: Bool = false) throws -> Template {
        switch current.kind {
        case .string(let template): advance(); return try repetition(of: template)
        case .hex(let template): return try repetition(of: try hex(template, what, expected: expected))
        default: throw failure("expected \(what) (a \"string\" or hex\"..\"), found \(current.display)", at: current)
        }
    }

    /// `template` N times when `* N` follows it (a count written out, or one variable, counted
    /// when the template is rendered), else as it is.
    mutating func repetition(of template: Template) throws -> Template {
        guard current.word == "*" else { return template }
        let star = advance()
        let count = try self.count("how many times")
        if case .interpolated(let times) = count.form, times.parts.count == 1, case .variable(let name, let plus, let location) = times.parts[0] {
            guard let bytes = template.literalBytes else {
                throw failure("'* {\(name)}' repeats a string written out, without variables", at: star)
            }
            return Template(parts: [.repeatedByVariable(bytes, times: name, plus: plus, location)])
        }
        guard let times = count.literal, times >= 1 else {
            throw failure("'* N' repeats a string N times: N is a number written out (1 or more) or one {variable}", at: star)
        }
        // A variable or a `??` counts as one byte here: the bound is on what the parser makes.
        let unit = template.literalCount ?? template.parts.reduce(0) { total, part in if case .bytes(let bytes) = part { total + bytes.count } else { total + 1 } }
        guard unit * times <= Template.largestRepetition else {
            throw failure("'* \(times)' makes \(unit * times) bytes; a repeated string makes at most 16MiB", at: star)
        }
        guard let bytes = template.literalBytes else { return Template(parts: Array(repeating: template.parts, count: times).flatMap { $0 }) }
        return Template(parts: [.repeated(bytes, times: times)])
    }

    /// The current hex string's `template`, refusing `??` where bytes are not `expected`.
    mutating func hex(_ template: Template, _ what: String, expected: Bool) throws -> Template {
        if !expected, let wildcard = template.anyBytes.first {
            throw Failure(diagnostic: Diagnostic(at: wildcard, length: 2, "?? (any byte) is only for expected bytes, not \(what)",
                                                 hint: "?? matches any byte in expect hex\"..\", expect bytes N =, expect message, expect binary and expect ping|pong"))
        }
        advance()
        return template
    }

    mutating func string(_ what: String) throws -> Template {
        guard case .string(let template) = current.kind else {
            throw failure("expected \(what) in double quotes, found \(current.display)", at: current)
        }
        advance()
        return template
    }

    mutating func regex() throws -> RegexLiteral {
        guard case .regex(let literal) = current.kind else {
            throw failure("expected a /regex/, found \(current.display)", at: current)
        }
        let index = position
        let token = advance()
        if let problem = regexProblems.problem(atToken: index) {
            throw failure("invalid regex \(literal.description): \(problem)", at: token)
        }
        return literal
    }

    /// A word argument parsed by `parse`, or kept as a template when it interpolates a variable.
    mutating func argument<Value>(_ what: String, hint: String, _ parse: (String) -> Value?) throws -> Argument<Value> {
        let token = try word(what)
        let text = token.word!
        let template = Template.word(text, at: token.location)
        if !template.variables.isEmpty {
            return Argument(interpolated: template, text: text, at: token.location)
        }
        guard let value = parse(text) else {
            throw failure("'\(text)' is not \(what)", at: token, hint: hint)
        }
        return Argument(value, text: text, at: token.location)
    }

    mutating func duration() throws -> Argument<Duration> {
        try argument("a duration", hint: Quantity.durationHint, Quantity.duration)
    }

    mutating func size(_ what: String = "a size") throws -> Argument<Int> {
        try argument(what, hint: Quantity.sizeHint, Quantity.size)
    }

    mutating func count(_ what: String = "a count") throws -> Argument<Int> {
        try argument(what, hint: "a whole number such as 3", Quantity.integer)
    }

    mutating func address() throws -> Argument<Address> {
        try argument("an address HOST:PORT", hint: Address.hint, Address.parse)
    }

    mutating func comparison() throws -> ComparisonOperator {
        let operators = ComparisonOperator.allCases.map(\.rawValue)
        guard let text = current.word, let op = ComparisonOperator(rawValue: text) else {
            throw failure("expected a comparison (\(operators.joined(separator: " "))), found \(current.display)", at: current)
        }
        advance()
        return op
    }

    // MARK: - Statements and blocks

    /// Parses statements up to the end of the file, or to the `}` closing a block.
    mutating func parseStatements(blockOpenedAt open: Token?) -> [Statement] {
        var statements: [Statement] = []
        while true {
            while current.kind == .newline || current.kind == .semicolon { advance() }
            switch current.kind {
            case .end:
                if let open {
                    diagnostics.append(Diagnostic(at: open.location, "this '{' is never closed", hint: "add '}' to end the block"))
                }
                return statements
            case .closeBrace:
                if open != nil { advance(); return statements }
                diagnostics.append(Diagnostic(at: current.location, "'}' closes no block"))
                advance()
                continue
            default:
                break
            }
            do {
                statements.append(try parseStatement())
                guard atStatementEnd else {
                    throw failure("unexpected \(current.display) after the statement", at: current)
                }
                if current.kind == .newline || current.kind == .semicolon { advance() }
            } catch let failure as Failure {
                diagnostics.append(failure.diagnostic)
                skipRestOfStatement()
            } catch {
                preconditionFailure("parser threw \(error)")
            }
        }
    }

    /// Skips to the end of the bad statement, including any block it opens.
    mutating func skipRestOfStatement() {
        var depth = 0
        while true {
            switch current.kind {
            case .end: return
            case .openBrace: depth += 1
            case .closeBrace:
                if depth == 0 { return }
                depth -= 1
                if depth == 0 { advance(); return }
            case .newline, .semicolon:
                if depth == 0 { advance(); return }
            default: break
            }
            advance()
        }
    }

    mutating func block(after context: String) throws -> [Statement] {
        guard current.kind == .openBrace else {
            throw failure("expected '{' to open the \(context) block, found \(current.display)", at: current)
        }
        let open = advance()
        return parseStatements(blockOpenedAt: open)
    }

    mutating func parseStatement() throws -> Statement {
        let start = position
        var prefix: Name?
        var linkNumber: Int?
        if let text = current.word, text.hasSuffix(":"), text.count > 1, !next.endsStatement {
            let nameText = String(text.dropLast())
            // `p.2:` names a proxy's second connection.
            let base = nameText.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard Identifier.isValid(String(base[0])), base.count == 1 || base[1].allSatisfy(\.isNumber) && !base[1].isEmpty,
                  base.count == 1 || Int(base[1]) != nil else {
                throw failure("'\(nameText)' is not a valid connection name", at: current)
            }
            prefix = Name(String(base[0]), at: current.location)
            linkNumber = base.count == 2 ? Int(base[1]) : nil
            advance()
        }
        let keywordToken = current
        guard let keyword = current.word, let entry = Grammar.entry(keyword) else {
            throw failure("expected a statement, found \(current.display)", at: current,
                          hint: Suggestion.hint(for: current.word, in: Grammar.statementKeywords))
        }
        advance()
        let kind = try entry.parse(&self)
        if let prefix {
            let isConnectionStep: Bool
            switch kind {
            case .expectExit, .expectOutput, .assertParallel: isConnectionStep = false
            default: isConnectionStep = entry.actsOnConnection
            }
            guard isConnectionStep else {
                let step = switch kind {
                case .assertParallel(.copies): "assert copies"
                case .assertParallel(.latency): "assert latency"
                default: keyword
                }
                throw failure("'\(step)' does not act on a connection, so it takes no '\(prefix.text):' prefix", at: keywordToken)
            }
        }
        return Statement(kind: kind, location: tokens[start].location, connection: prefix, linkNumber: linkNumber, text: text(from: start))
    }

    /// The source text of tokens `start..<position` on the statement's first line, up to any '{'.
    func text(from start: Int) -> String {
        let first = tokens[start]
        var last = first
        for token in tokens[start..<max(start + 1, position)] {
            if token.location.line != first.location.line || token.kind == .openBrace || token.endsStatement { break }
            last = token
        }
        guard first.location.line >= 1, first.location.line <= source.lineCount else { return "" }
        let line = source.scalars(ofLineAt: first.location.line - 1)
        let from = max(0, min(first.location.column - 1, line.count))
        let to = min(max(from, last.location.column - 1 + last.length), line.count)
        return String(scalars: line.dropFirst(from).prefix(to - from))
    }

    mutating func parseTitle() throws -> StatementKind {
        let template = try string("a title")
        title = template
        return .title(template)
    }

    mutating func parseTags() throws -> StatementKind {
        var words: [String] = []
        while !atStatementEnd { words.append(try word("a tag").word!) }
        if words.isEmpty { throw failure("expected at least one tag", at: current) }
        tags += words
        return .tags(words)
    }

    mutating func parseInclude() throws -> StatementKind {
        let template = try string("a file name")
        guard let bytes = template.literalBytes else {
            throw failure("an include path cannot interpolate variables", at: tokens[position - 1])
        }
        return .include(String(decoding: bytes, as: UTF8.self))
    }

    mutating func parseListen() throws -> StatementKind {
        let name = try name("a listener name")
        let address = try address()
        guard !atStatementEnd else { return .listen(name, address, tls: nil) }
        try keyword(["tls"], after: "the address")
        return .listen(name, address, tls: try tlsOptions(TLSOptions.serverOptions, after: "listen ... tls"))
    }

    mutating func parseAccept() throws -> StatementKind {
        let name = try name("a connection name")
        try keyword(["on"], after: "accept NAME")
        let listener = try self.name("a listener name")
        var within: Argument<Duration>?
        var expectTLSFailure = false
        var speaking: AcceptedProtocol?
        while !atStatementEnd {
            switch try keyword(Grammar.AcceptOption.self, after: "the listener name") {
            case .within: within = try duration()
            case .websocket: speaking = .webSocket(take("protocol") ? [try string("a subprotocol")] : [])
            case .http2: speaking = .http2
            case .expect:
                try keyword(["tls-failure"], after: "accept ... expect")
                expectTLSFailure = true
            }
        }
        return .accept(name, listener: listener, within: within, expectTLSFailure: expectTLSFailure, speaking: speaking)
    }

    mutating func parseRepeat() throws -> StatementKind {
        let count = try count("a repeat count")
        let body = try block(after: "repeat")
        guard take("until") else { return .repeatBlock(count, body: body, untilClosed: false) }
        try keyword(["closed"], after: "repeat N { … } until")
        return .repeatBlock(count, body: body, untilClosed: true)
    }

    mutating func parseNonStrict() throws -> StatementKind {
        .nonStrict(body: try block(after: "non-strict"))
    }

    /// `skip "REASON" unless { … }` or `skip "REASON" unless defined NAME`.
    mutating func parseSkip() throws -> StatementKind {
        let reason = try string("the reason to skip")
        try keyword(["unless"], after: "skip \"REASON\"")
        guard take("defined") else { return .nonStrict(body: try block(after: "skip \"REASON\" unless"), skip: reason) }
        let token = try word("a variable's name")
        return .skipUnlessDefined(reason: reason, name: token.word!, at: token.location)
    }

    mutating func parseParallel() throws -> StatementKind {
        let count = try count("a number of copies")
        return .parallel(count, body: try block(after: "parallel"))
    }

    /// `assert copies passed|failed OP N%|N` or `assert latency p50|p90|p99|p99.9|max OP D`.
    mutating func parseParallelAssertion() throws -> ParallelAssertion {
        if take("latency") {
            let statistic = try keyword(ParallelAssertion.LatencyStatistic.allCases.map(\.rawValue), after: "assert latency")
            return .latency(ParallelAssertion.LatencyStatistic(rawValue: statistic)!, try comparison(), try duration())
        }
        try keyword(["copies"], after: "assert")
        let outcome = try keyword(ParallelAssertion.CopyOutcome.allCases.map(\.rawValue), after: "assert copies")
        let op = try comparison()
        let amount = try argument("a share of the copies or a number of them", hint: ParallelAssertion.CopyAmount.hint, ParallelAssertion.CopyAmount.parse)
        return .copies(ParallelAssertion.CopyOutcome(rawValue: outcome)!, op, amount)
    }
}
