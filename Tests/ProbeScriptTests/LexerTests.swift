import Testing
@testable import ProbeScript

@Suite struct LexerTests {
    private func kinds(_ text: String) -> ([Token.Kind], [Diagnostic]) {
        var lexer = Lexer(SourceFile(path: "t.scn", text: text))
        let tokens = lexer.tokenize()
        return (tokens.map(\.kind), lexer.diagnostics)
    }

    @Test func interpolatedWordsAreWordsButLoneBracesAreBlocks() {
        let (tokens, diagnostics) = kinds("repeat 3 { connect {host}:{port} }")
        #expect(diagnostics.isEmpty)
        #expect(tokens == [.word("repeat"), .word("3"), .openBrace, .word("connect"), .word("{host}:{port}"), .closeBrace, .end])
    }

    @Test func stringEscapesAndInterpolation() {
        let (tokens, diagnostics) = kinds(#""a\r\n\t\0\\\"\{\}\x41\u{e9}{name}!""#)
        #expect(diagnostics.isEmpty)
        let location = SourceLocation(file: "t.scn", line: 1, column: 30)
        let expected = Template(parts: [.bytes([97, 13, 10, 9, 0, 92, 34, 123, 125, 65, 0xC3, 0xA9]), .variable("name", location), .bytes([33])])
        #expect(tokens.first == .string(expected))
    }

    /// `{NAME + N}` and `{NAME - N}` are one interpolation, spaces and all, in a word, a string
    /// and a regex; without the spaces, or with no number, the braces are not one.
    @Test func interpolationsAddAndTakeAwayWholeNumbers() {
        let (tokens, diagnostics) = kinds(#"block table-size {http2.header-table-size + 1} "{n - 2}x" {a+1}"#)
        #expect(diagnostics.isEmpty)
        #expect(tokens.prefix(3) == [.word("block"), .word("table-size"), .word("{http2.header-table-size + 1}")])
        let word = Template.word("{http2.header-table-size + 1}", at: SourceLocation(file: "t.scn", line: 1, column: 18))
        #expect(word.parts == [.variable("http2.header-table-size", plus: 1, SourceLocation(file: "t.scn", line: 1, column: 19))])
        #expect(word.variables.map(\.name) == ["http2.header-table-size"])
        #expect(word.renderString { $0 == "http2.header-table-size" ? "4096" : nil } == "4097")
        guard case .string(let string) = tokens[3] else { Issue.record("\(tokens)"); return }
        #expect(string.render { $0 == "n" ? "10" : nil } == Array("8x".utf8))
        #expect(string.render { $0 == "n" ? "ten" : nil } == Array("ten - 2x".utf8), "not a number: the sum stays as written, for the parse to refuse")
        #expect(Template.word("{a+1}", at: SourceLocation(file: "t.scn", line: 1, column: 1)).variables.isEmpty)
        let (_, unspaced) = kinds(#""{a+1}""#)
        #expect(unspaced.map(\.message) == ["'{' does not start an interpolation here"])
        #expect(Template.value("9223372036854775807", plus: 1) == "9223372036854775807 + 1", "an overflow is not a number either")
    }

    @Test func hexStringsAcceptSpacesAndColons() {
        let (tokens, diagnostics) = kinds(#"send hex"0d 0a:ff-00""#)
        #expect(diagnostics.isEmpty)
        #expect(tokens[1] == .hex(Template(literal: [0x0d, 0x0a, 0xff, 0x00])))
        // `{name}` inserts a variable's bytes between the hex digits.
        let (withVariable, clean) = kinds(#"send hex"40 02 {pid}""#)
        #expect(clean.isEmpty)
        guard case .hex(let template) = withVariable[1] else { Issue.record("\(withVariable)"); return }
        #expect(template.parts.count == 2 && template.variables.map(\.name) == ["pid"])
        #expect(template.render { $0 == "pid" ? "\u{1}" : nil } == [0x40, 0x02, 0x01])
    }

    @Test func regexKeepsEscapedSlashesAndClassSlashesAndFlags() {
        let (tokens, diagnostics) = kinds(#"expect line /a\/b[/]c/is"#)
        #expect(diagnostics.isEmpty)
        guard case .regex(let literal) = tokens[2] else { Issue.record("not a regex: \(tokens[2])"); return }
        #expect(literal.pattern == "a/b[/]c")
        #expect(literal.ignoresCase && literal.dotMatchesNewlines)
    }

    @Test func commentsEndAtTheLineAndHashInStringsIsText() {
        let (tokens, _) = kinds("send \"#1\" # a comment\nclose")
        #expect(tokens == [.word("send"), .string(Template(literal: "#1")), .newline, .word("close"), .end])
    }

    @Test func crlfLineEndingsAreAccepted() {
        let (tokens, diagnostics) = kinds("close\r\nabort\r\n")
        #expect(diagnostics.isEmpty)
        #expect(tokens == [.word("close"), .newline, .word("abort"), .newline, .end])
    }

    @Test func columnsCountScalarsForCarets() {
        var lexer = Lexer(SourceFile(path: "t.scn", text: "send \"é\" \"\\q\""))
        _ = lexer.tokenize()
        #expect(lexer.diagnostics.map(\.location.column) == [11])
    }

    @Test func wordsStringsAndLinesKeepNonASCIIText() {
        let source = SourceFile(path: "t.scn", text: "tags café\nsend \"é😀{name}ï\"\n")
        var lexer = Lexer(source)
        let tokens = lexer.tokenize()
        #expect(lexer.diagnostics.isEmpty)
        #expect(tokens.first?.kind == .word("tags"))
        #expect(tokens.dropFirst().first?.kind == .word("café"))
        guard case .string(let template) = tokens[4].kind else {
            Issue.record("expected a string, found \(tokens[4].kind)")
            return
        }
        #expect(template.parts.first == .bytes(Array("é😀".utf8)))
        #expect(template.variables.map(\.name) == ["name"])
        #expect(template.parts.last == .bytes(Array("ï".utf8)))
        #expect(source.line(2) == "send \"é😀{name}ï\"")
    }
}
