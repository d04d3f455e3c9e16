/// The one table of the language's keywords. The parser dispatches on it, "did you mean"
/// suggests from it, and `tcpprobe grammar` prints it as the reference.
public enum Grammar {
    /// A statement keyword with its synopsis.
    public struct Entry: Sendable {
        public let keyword: String
        public let synopsis: [String]
        /// True for steps that act on a connection and so accept a `NAME:` prefix.
        public let actsOnConnection: Bool
    }

    public static let statements: [Entry] = [
        Entry(keyword: "title", synopsis: ["title \"NAME\""], actsOnConnection: false),
        Entry(keyword: "tags", synopsis: ["tags WORD..."], actsOnConnection: false),
        Entry(keyword: "set", synopsis: ["set timeout DURATION", "set deadline DURATION",
                                         "set terminator crlf|lf|cr|nul|\"STRING\"", "set max-line SIZE",
                                         "set capture on|off|headers", "set unread note|fail|ignore"], actsOnConnection: false),
        Entry(keyword: "var", synopsis: ["var NAME = \"VALUE\"|WORD|free-port"], actsOnConnection: false),
        Entry(keyword: "include", synopsis: ["include \"FILE\""], actsOnConnection: false),
        Entry(keyword: "spawn", synopsis: ["spawn NAME \"COMMAND\" [ready on HOST:PORT | ready when stdout|stderr /RE/] [within D] [with stdin] [env K=V...]"], actsOnConnection: false),
        Entry(keyword: "kill", synopsis: ["kill NAME [SIGNAL]"], actsOnConnection: false),
        Entry(keyword: "input", synopsis: ["input NAME line \"TEXT\"|\"BYTES\"|hex\"..\"|eof   (to a subject spawned with stdin)"], actsOnConnection: false),
        Entry(keyword: "connect", synopsis: ["connect [NAME] HOST:PORT [timeout D] [rcvbuf SIZE] [sndbuf SIZE] [expect refused|timeout]"], actsOnConnection: false),
        Entry(keyword: "listen", synopsis: ["listen NAME HOST:PORT"], actsOnConnection: false),
        Entry(keyword: "accept", synopsis: ["accept NAME on LISTENER [within D]"], actsOnConnection: false),
        Entry(keyword: "use", synopsis: ["use NAME"], actsOnConnection: false),
        Entry(keyword: "send", synopsis: ["send \"BYTES\"|hex\"..\"|line \"TEXT\"|file \"PATH\"|random SIZE [in chunks of N] [split at I,J,...|split sweep] [every D] [at RATE]"], actsOnConnection: true),
        Entry(keyword: "expect", synopsis: [
            "expect line \"TEXT\"|/RE/|contains \"TEXT\"|any", "expect lines unordered \"A\", \"B\"...",
            "expect \"BYTES\"|hex\"..\"", "expect bytes N [= \"BYTES\"]", "expect until \"DELIM\" max SIZE",
            "expect any|eof|reset|close", "expect nothing for D", "expect exit NAME [code N] [within D]",
            "expect stdout|stderr NAME line \"TEXT\"|/RE/|contains \"TEXT\"|any", "expect stdout|stderr NAME eof",
            "... [within D] on any expect",
        ], actsOnConnection: true),
        Entry(keyword: "read", synopsis: ["read slowly N byte(s) every D (for D | until eof | total SIZE)"], actsOnConnection: true),
        Entry(keyword: "pause", synopsis: ["pause reading"], actsOnConnection: true),
        Entry(keyword: "resume", synopsis: ["resume reading"], actsOnConnection: true),
        Entry(keyword: "sleep", synopsis: ["sleep DURATION"], actsOnConnection: false),
        Entry(keyword: "close", synopsis: ["close"], actsOnConnection: true),
        Entry(keyword: "shutdown", synopsis: ["shutdown write"], actsOnConnection: true),
        Entry(keyword: "abort", synopsis: ["abort"], actsOnConnection: true),
        Entry(keyword: "repeat", synopsis: ["repeat N { ... }   ({i} is the iteration, from 0)"], actsOnConnection: false),
        Entry(keyword: "parallel", synopsis: ["parallel N { ... }   ({copy} is the copy, from 0)"], actsOnConnection: false),
        Entry(keyword: "assert", synopsis: [
            "assert wire from peer|probe terminator crlf|lf|cr|nul|\"STRING\"", "assert wire from peer|probe lines unsplit",
            "assert wire from peer|probe line \"TEXT\"|/RE/ in 1 segment", "assert wire from peer|probe segments OP N",
            "assert wire from peer|probe max-segment OP SIZE", "assert wire from peer|probe bytes OP SIZE",
            "assert wire from peer|probe fin|rst|no fin|no rst|zero-window", "(OP is = != < <= > >=)",
        ], actsOnConnection: true),
    ]

    public static let statementKeywords: [String] = statements.map(\.keyword)

    public static func entry(_ keyword: String) -> Entry? {
        statements.first { $0.keyword == keyword }
    }

    static let settings = ["timeout", "deadline", "terminator", "max-line", "capture", "unread"]
    static let connectOptions = ["timeout", "rcvbuf", "sndbuf", "expect"]
    static let sendForms = ["line", "file", "random"]
    static let sendModifiers = ["in", "split", "every", "at"]
    static let expectForms = ["line", "lines", "bytes", "until", "any", "eof", "reset", "close", "nothing", "exit", "stdout", "stderr"]
    static let lineForms = ["contains", "any"]
    static let slowReadStops = ["for", "until", "total"]
    static let spawnOptions = ["ready", "with", "env"]
    static let wireProperties = ["terminator", "lines", "line", "segments", "max-segment", "bytes", "fin", "rst", "no", "zero-window"]

    /// The reference text of every statement, as `tcpprobe grammar` prints it.
    public static var reference: String {
        statements.flatMap(\.synopsis).joined(separator: "\n")
    }
}
