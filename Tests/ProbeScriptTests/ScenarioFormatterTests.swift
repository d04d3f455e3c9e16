import Foundation
import ProbeScript
import Testing

/// `tcpprobe fmt`'s layout: canonical, comments kept, meaning unchanged, idempotent.
@Suite struct ScenarioFormatterTests {
    static func format(_ text: String) throws -> String {
        try ScenarioFormatter.format(SourceFile(path: "t.scn", text: text))
    }

    @Test func writesTheCanonicalLayout() throws {
        let messy = "\n\n# header comment   \r\ntitle   \"x\"\t# the title\r\nvar   port =  free-port\n"
            + "spawn s \"srv\"  env  A=\"a b\"   B=1 ready on 127.0.0.1:{port}\n\n\n\n"
            + "connect 127.0.0.1:{port} ; send line \"a\";expect line   \"b\"   # two steps\n"
            + "    send \"x\" split at 3 , 5 every 10ms\n"
            + "expect lines unordered \"a\",\"b\"\n"
            + "repeat 2 { send line \"{i}\" ; repeat 3 {\n\t\texpect   any\n        # inside\n}  }\n"
            + "parallel 2 {\nsleep 1ms   # short\n  close    # a long comment\n}\n\n\n"
        let expected = """
        # header comment
        title "x"  # the title
        var port = free-port
        spawn s "srv" env A="a b" B=1 ready on 127.0.0.1:{port}

        connect 127.0.0.1:{port}  # two steps
        send line "a"
        expect line "b"
        send "x" split at 3,5 every 10ms
        expect lines unordered "a", "b"
        repeat 2 {
          send line "{i}"
          repeat 3 {
            expect any
            # inside
          }
        }
        parallel 2 {
          sleep 1ms  # short
          close      # a long comment
        }

        """
        #expect(try Self.format(messy) == expected)
        #expect(try Self.format(expected) == expected)
    }

    @Test func keepsEveryCommentInOrder() throws {
        let text = try String(contentsOfFile: Fixtures.directory + "/contract/connections.scn", encoding: .utf8)
        let comments = { (text: String) in
            text.split(separator: "\n").compactMap { line in line.firstIndex(of: "#").map { String(line[$0...]) } }
        }
        #expect(comments(try Self.format(text)) == comments(text))
        #expect(!comments(text).isEmpty)
    }

    /// What follows a block's `}` on its line stays with it: `} until closed` is one statement's
    /// end, and the fingerprint tells it from a plain repeat.
    @Test func keepsUntilClosedAfterItsBlock() throws {
        #expect(try Self.format("repeat 3 { send \"x\" ; sleep 1ms }   until closed\n") == "repeat 3 {\n  send \"x\"\n  sleep 1ms\n} until closed\n")
        let parse = { (text: String) in SyntaxFingerprint.of(Parser.parse(SourceFile(path: "f.scn", text: text)).statements) }
        #expect(parse("repeat 2 { send \"a\" } until closed") != parse("repeat 2 { send \"a\" }"))
    }

    /// The fmt fuzz target's crash: a comment ending in CRs, the file's last line without a
    /// newline. Formatted, its last CR and the LF after it read as CRLF, so a second pass
    /// changed it again. The fuzzer's inputs that parse format idempotently.
    @Test(arguments: Fixtures.files(in: "fuzz", ending: ".scn"))
    func fuzzInputsFormatIdempotently(_ path: String) throws {
        // As the fuzz target reads its input: bytes that are not UTF-8 become U+FFFD.
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        guard let once = try? Self.format(text) else { return }
        #expect(try Self.format(once) == once, "\(path)")
    }

    @Test func aCommentLosesItsTrailingCarriageReturns() throws {
        #expect(try Self.format("close  # bye\r\r\r") == "close  # bye\n")
        #expect(try Self.format("# a\r\r\n\r# b\r") == "# a\n# b\n")
    }

    @Test func refusesAFileWithErrors() {
        #expect {
            try Self.format("connect 127.0.0.1:80 timout 1s\n")
        } throws: { error in
            guard case ScenarioFormatter.Failure.invalid(let diagnostics) = error else { return false }
            return diagnostics.first?.location.line == 1 && diagnostics.first?.message.contains("timout") == true
        }
    }

    @Test func theFingerprintIgnoresPlacesButNotMeaning() throws {
        let parse = { (text: String) in SyntaxFingerprint.of(Parser.parse(SourceFile(path: "f.scn", text: text)).statements) }
        #expect(parse("send line \"a\"\nexpect any") == parse("\n\n  send   line \"a\" ; expect any"))
        #expect(parse("send line \"a\"") != parse("send line \"b\""))
        #expect(parse("repeat 2 { send \"a\" }") != parse("repeat 3 { send \"a\" }"))
        #expect(parse("c: close") != parse("close"))
        #expect(parse("send \"x\" split at 3,5") != parse("send \"x\" split at 3,6"))
    }

    /// Every scenario and fragment the project has: formatting keeps its meaning and a second
    /// pass changes nothing.
    @Test func everyProjectScenarioFormatsIdempotently() throws {
        let root = URL(fileURLWithPath: Fixtures.directory).deletingLastPathComponent().deletingLastPathComponent()
        var formatted = 0
        for folder in ["Scenarios", "Tests/Fixtures"] {
            let base = root.appendingPathComponent(folder).path
            for relative in try FileManager.default.subpathsOfDirectory(atPath: base)
            where relative.hasSuffix(".scn") || relative.hasSuffix(".inc") {
                guard let text = try? String(contentsOfFile: base + "/" + relative, encoding: .utf8),
                      let once = try? Self.format(text) else { continue }
                #expect(try Self.format(once) == once, "\(folder)/\(relative)")
                formatted += 1
            }
        }
        #expect(formatted > 40)
    }

    /// Layout is all that a re-spaced file changes: random blanks between tokens, indentation,
    /// trailing blanks, runs of blank lines and CRLF endings format to the same text.
    @Test(arguments: 0..<4) func layoutNoiseFormatsAway(seed: UInt64) throws {
        let root = URL(fileURLWithPath: Fixtures.directory).deletingLastPathComponent().deletingLastPathComponent()
        // The WebSocket suites' 494 cases are written by a generator, a few shapes in all: the
        // test above formats them all; here they would take most of the test's time.
        let sources = try FileManager.default.subpathsOfDirectory(atPath: root.appendingPathComponent("Scenarios").path)
            .filter { $0.hasSuffix(".scn") && !$0.hasPrefix("websocket-server/") && !$0.hasPrefix("websocket-client/") }.sorted()
        var random = SplitMix(seed: seed)
        for name in sources {
            let text = try String(contentsOfFile: root.appendingPathComponent("Scenarios/" + name).path, encoding: .utf8)
            let noisy = Self.respace(text, random: &random)
            #expect(try Self.format(noisy) == Self.format(text), "\(name), seed \(seed):\n\(noisy)")
        }
    }

    /// `text` with its blanks changed at random, every token and comment kept.
    static func respace(_ text: String, random: inout SplitMix) -> String {
        let source = SourceFile(path: "n.scn", text: text)
        var lexer = Lexer(source)
        let tokens = lexer.tokenize()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        func blanks(_ range: ClosedRange<Int>) -> String {
            String((0..<Int(random.next() % UInt64(range.count)) + range.lowerBound).map { _ in random.next() % 3 == 0 ? "\t" : " " })
        }
        var out = ""
        for (index, scalars) in lines.enumerated() {
            let lineTokens = tokens.filter { $0.location.line == index + 1 && $0.kind != .newline && $0.kind != .end }
            out += blanks(0...3)
            var end = 0
            for token in lineTokens {
                let start = token.location.column - 1
                if end > 0 { out += token.isAdjacent ? "" : blanks(1...3) }
                out += String(String.UnicodeScalarView(scalars[start..<(start + token.length)]))
                end = start + token.length
            }
            let rest = String(String.UnicodeScalarView(scalars[end...])).trimmingCharacters(in: .whitespaces)
            if !rest.isEmpty { out += (lineTokens.isEmpty ? "" : blanks(1...4)) + rest }
            out += blanks(0...2) + (random.next() % 4 == 0 ? "\r\n" : "\n")
            // Another blank line where there is one already: a new one would end a paragraph.
            if lineTokens.isEmpty, rest.isEmpty, random.next() % 2 == 0 { out += "\n" }
        }
        return out
    }
}

/// A small seeded generator (SplitMix64), so a failing seed reproduces.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
