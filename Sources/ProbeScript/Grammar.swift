/// The one table of the language's keywords. The parser dispatches on it, "did you mean"
/// suggests from it, and `tcpprobe grammar` prints it as the reference.
package enum Grammar {
    /// A statement keyword with its synopsis, and the parser of what follows the keyword.
    package struct Entry: Sendable {
        package let keyword: String
        package let synopsis: [String]
        /// True for steps that act on a connection and so accept a `NAME:` prefix.
        package let actsOnConnection: Bool
        let parse: @Sendable (inout Parser) throws -> StatementKind
    }

    package static let statements: [Entry] = [
        Entry(keyword: "title", synopsis: ["title \"NAME\""], actsOnConnection: false, parse: { try $0.parseTitle() }),
        Entry(keyword: "tags", synopsis: ["tags WORD..."], actsOnConnection: false, parse: { try $0.parseTags() }),
        Entry(keyword: "set", synopsis: ["set timeout DURATION", "set deadline DURATION",
                                         "set terminator crlf|lf|cr|nul|\"STRING\"", "set max-line SIZE",
                                         "set capture on|off|headers", "set unread note|fail|ignore", "set cut-off fail|skip",
                                         "set framing lines|length 1|2|3|4|8 [big|little] [after N] [adjust ±K]|varint [after N]", "set max-message SIZE", "set websocket auto-pong on|off",
                                         "set http2 handshake on|off", "set http2 auto-ack on|off"], actsOnConnection: false, parse: { .set(try $0.parseSetting()) }),
        Entry(keyword: "var", synopsis: ["var NAME = \"VALUE\"|WORD|free-port"], actsOnConnection: false, parse: { try $0.parseVariable() }),
        Entry(keyword: "include", synopsis: ["include \"FILE\""], actsOnConnection: false, parse: { try $0.parseInclude() }),
        Entry(keyword: "spawn", synopsis: ["spawn NAME \"COMMAND\" [ready on HOST:PORT | ready when stdout|stderr /RE/] [within D] [with stdin] [cwd \"DIR\"] [env K=V...] [in NETWORK] [unless given VAR]"], actsOnConnection: false, parse: { .spawn(try $0.parseSpawn()) }),
        Entry(keyword: "kill", synopsis: ["kill NAME [SIGNAL]"], actsOnConnection: false, parse: { try $0.parseKill() }),
        Entry(keyword: "input", synopsis: ["input NAME line \"TEXT\"|\"BYTES\"|hex\"..\"|eof   (to a subject spawned with stdin)"], actsOnConnection: false, parse: { .input(try $0.parseInput()) }),
        Entry(keyword: "connect", synopsis: ["connect [NAME] HOST:PORT [from ADDR[:PORT]|NETWORK/PREFIX] [tls [insecure] [ca \"FILE\"] [sni \"NAME\"] [alpn \"P\",...] [version 1.2|1.3] [ciphers \"LIST\"] [cert \"FILE\" key \"FILE\"]] [timeout D] [rcvbuf SIZE] [sndbuf SIZE] [expect refused|timeout|tls-failure]",
                                                   "connect [NAME] ws://HOST:PORT/PATH|wss://HOST:PORT/PATH [protocol \"P\"] [header \"K: V\"]... [tls OPTIONS] [timeout D]",
                                                   "connect [NAME] h2://HOST:PORT/PATH|h2s://HOST:PORT/PATH [tls OPTIONS] [timeout D]   (HTTP/2: the preface and SETTINGS exchanged)"], actsOnConnection: false, parse: { .connect(try $0.parseConnect()) }),
        Entry(keyword: "listen", synopsis: ["listen NAME HOST:PORT [tls [cert \"FILE\" key \"FILE\"] [client-ca \"FILE\"] [alpn \"P\",...] [version 1.2|1.3] [ciphers \"LIST\"]]   ({NAME.port}, {NAME.cert})"], actsOnConnection: false, parse: { try $0.parseListen() }),
        Entry(keyword: "accept", synopsis: ["accept NAME on LISTENER [within D] [expect tls-failure] [websocket [protocol \"P\"] | http2]"], actsOnConnection: false, parse: { try $0.parseAccept() }),
        Entry(keyword: "use", synopsis: ["use NAME"], actsOnConnection: false, parse: { .use(try $0.name("a connection name")) }),
        Entry(keyword: "send", synopsis: ["send text \"TEXT\"|binary \"BYTES\"|ping [\"BYTES\"]|pong [\"BYTES\"]|close [CODE [\"REASON\"]] [in frames of N]   (WebSocket frames; the modifiers cut the encoded frames)",
                                           "send frame text|binary|continuation|ping|pong|close|0-15 [\"BYTES\"] [fin on|off] [mask on|off] [rsv1|rsv2|rsv3 on|off]",
                                           "send preface", "send frame data|headers|priority|rst-stream|settings|push-promise|ping|goaway|window-update|continuation|type N [STREAM] [FLAG]... [\"NAME\"=\"VALUE\"|block hex\"..\"|block table-size N]... [continued at N...] [\"BYTES\"] [padded N] [pad-length [over] N] [depends-on N weight W [exclusive]] [CODE] [last-stream N] [promised N] [NAME=VALUE]... [flags N] [stream N] [length N]   (HTTP/2)",
                                           "send \"BYTES\"|hex\"..\"|line \"TEXT\"|message [head \"H\"|hex\"..\"] \"BYTES\"|hex\"..\"|file \"PATH\"|random SIZE [in chunks of N] [split at I,J,...|split sweep] [every D] [at RATE] [until closed [within D]]"], actsOnConnection: true, parse: { .send(try $0.parseSend()) }),
        Entry(keyword: "expect", synopsis: [
            "expect line \"TEXT\"|/RE/|contains \"TEXT\"|any", "expect lines unordered \"A\", \"B\"...",
            "expect message [head \"H\"|hex\"..\"] \"BYTES\"|hex\"..\"|/RE/|contains \"TEXT\"|any|bytes N",
            "expect text \"TEXT\"|/RE/|contains \"TEXT\"|any", "expect binary \"BYTES\"|hex\"..\"|any|bytes N",
            "expect ping|pong [\"BYTES\"]",
            "expect frame TYPE [STREAM] [FLAG]... [error CODE [or CODE]...] [last-stream N] [status N] [header \"NAME\"=\"VALUE\"|/RE/]... [length N] [\"BYTES\"|/RE/] [or close]   (HTTP/2; other frames are skipped)",
            "expect connection error CODE [or CODE]...", "expect stream error STREAM CODE [or CODE]...", "expect stream end STREAM   (END_STREAM, or RST_STREAM NO_ERROR)", "expect close CODE [or CODE]... [or none]|any [reason /RE/]   (a WebSocket close frame; none: one without a code, or TCP's end without one)",
            "expect \"BYTES\"|hex\"..\"", "expect bytes N [= \"BYTES\"]", "expect until \"DELIM\"|/RE/ max SIZE",
            "expect eventually line \"TEXT\"|/RE/|contains \"TEXT\" [max SIZE] [unless /RE/]",
            "expect any|eof|reset|close", "expect nothing for D", "expect exit NAME [code N] [within D]",
            "expect stdout|stderr NAME [eventually] line \"TEXT\"|/RE/|contains \"TEXT\"|any", "expect stdout|stderr NAME eof",
            "NAME: expect upstream|downstream EXPECTATION   (the traffic through proxy NAME, watched)",
            "... [within D] on any expect",
        ], actsOnConnection: true, parse: { try $0.parseExpect() }),
        Entry(keyword: "on", synopsis: ["on line \"TEXT\"|/RE/|contains \"TEXT\"|any [send …]   (from now on, consume such lines and answer each)",
                                        "on message [head \"H\"|hex\"..\"] \"BYTES\"|hex\"..\"|/RE/|contains \"TEXT\"|any|bytes N [send …]",
                                        "on every D send …   (a heartbeat)", "on off   (the connection's rules end)"],
              actsOnConnection: true, parse: { .on(try $0.parseOn()) }),
        Entry(keyword: "read", synopsis: ["read slowly N byte(s)|SIZE every D (for D | until eof | total N byte(s)|SIZE)"], actsOnConnection: true, parse: { .readSlowly(try $0.parseSlowRead()) }),
        Entry(keyword: "pause", synopsis: ["pause reading"], actsOnConnection: true, parse: { try $0.keyword(["reading"], after: "pause"); return .pauseReading }),
        Entry(keyword: "resume", synopsis: ["resume reading"], actsOnConnection: true, parse: { try $0.keyword(["reading"], after: "resume"); return .resumeReading }),
        Entry(keyword: "sleep", synopsis: ["sleep DURATION"], actsOnConnection: false, parse: { .sleep(try $0.duration()) }),
        Entry(keyword: "close", synopsis: ["close"], actsOnConnection: true, parse: { _ in .close }),
        Entry(keyword: "shutdown", synopsis: ["shutdown write"], actsOnConnection: true, parse: { try $0.keyword(["write"], after: "shutdown"); return .shutdownWrite }),
        Entry(keyword: "abort", synopsis: ["abort"], actsOnConnection: true, parse: { _ in .abort }),
        Entry(keyword: "repeat", synopsis: ["repeat N { ... } [until closed]   ({i} is the iteration, from 0; until closed: ends when the peer closes)"], actsOnConnection: false, parse: { try $0.parseRepeat() }),
        Entry(keyword: "parallel", synopsis: ["parallel N { ... }   ({copy} is the copy, from 0)"], actsOnConnection: false, parse: { try $0.parseParallel() }),
        Entry(keyword: "skip", synopsis: ["skip \"REASON\" unless { ... }   (a step not met ends the scenario as skipped)",
                                          "skip \"REASON\" unless defined NAME   (skipped when the variable has no value)"], actsOnConnection: false,
              parse: { try $0.parseSkip() }),
        Entry(keyword: "non-strict", synopsis: ["non-strict { ... }   (a step not met ends the block with a note, not the scenario)"], actsOnConnection: false,
              parse: { try $0.parseNonStrict() }),
        Entry(keyword: "assert", synopsis: [
            "assert wire from peer|probe terminator crlf|lf|cr|nul|\"STRING\"", "assert wire from peer|probe lines unsplit",
            "assert wire from peer|probe line \"TEXT\"|/RE/ in 1 segment|record", "assert wire from peer|probe segments OP N", "assert wire from peer|probe retransmissions OP N",
            "assert wire from peer|probe records OP N   (TLS application data records)",
            "assert wire from peer|probe messages unsplit", "assert wire from peer|probe masked|unmasked   (WebSocket frames)", "assert wire from peer|probe frames unsplit   (WebSocket or HTTP/2 frames)",
            "assert wire from peer|probe frame TYPE in 1 segment|record   (HTTP/2 frames)", "assert wire from peer|probe message \"BYTES\"|/RE/ in 1 segment|record",
            "assert wire from peer|probe max-segment OP SIZE", "assert wire from peer|probe bytes OP SIZE",
            "assert wire from peer|probe fin|rst|no fin|no rst|zero-window", "(OP is = != < <= > >=)",
            "NAME: assert wire from client|server|to client|to server PROPERTY   (a proxy's legs: front to the client, back to the server)",
            "assert tls version = 1.2|1.3", "assert tls alpn = \"P\"", "assert tls cipher /RE/", "assert tls peer subject /RE/",
            "assert copies passed|failed OP N%|N   (after a parallel block: judged on its copies)",
            "assert latency p50|p90|p99|p99.9|max OP D   (after a parallel block: its expects' latencies)",
        ], actsOnConnection: true, parse: { try $0.parseAssert() }),
        Entry(keyword: "proxy", synopsis: ["proxy NAME FRONT_HOST:PORT to BACK_HOST:PORT   ({NAME.port}; its connections: NAME:, NAME.2:, ...)"], actsOnConnection: false, parse: { try $0.parseProxy() }),
        Entry(keyword: "network", synopsis: ["network NAME [FAULT [upstream|downstream]]...   (a namespace joined to the probe by a link it drives: {NAME.host}, {NAME.gateway})"],
              actsOnConnection: false, parse: { try $0.parseNetwork() }),
        Entry(keyword: "loss", synopsis: ["NAME: loss P% [burst N] [upstream|downstream]   (a network's faults, on whole packets, from the step on)"], actsOnConnection: true,
              parse: { .networkFault(try $0.parseNetworkFault(.loss)) }),
        Entry(keyword: "reorder", synopsis: ["NAME: reorder P% [gap D] [upstream|downstream]"], actsOnConnection: true, parse: { .networkFault(try $0.parseNetworkFault(.reorder)) }),
        Entry(keyword: "duplicate", synopsis: ["NAME: duplicate P% [upstream|downstream]"], actsOnConnection: true, parse: { .networkFault(try $0.parseNetworkFault(.duplicate)) }),
        Entry(keyword: "partition", synopsis: ["NAME: partition [upstream|downstream]   (drops every packet until heal)"], actsOnConnection: true,
              parse: { .networkFault(try $0.parseNetworkFault(.partition)) }),
        Entry(keyword: "heal", synopsis: ["NAME: heal [upstream|downstream]"], actsOnConnection: true, parse: { .networkFault(try $0.parseNetworkFault(.heal)) }),
        Entry(keyword: "delay", synopsis: ["NAME: delay D [jitter D] [upstream|downstream]   (a proxy's faults, and delay, rate and clear a network's, from the step on)"], actsOnConnection: true, parse: { .proxyFault(try $0.parseProxyFault(.delay)) }),
        Entry(keyword: "rate", synopsis: ["NAME: rate RATE [upstream|downstream]"], actsOnConnection: true, parse: { .proxyFault(try $0.parseProxyFault(.rate)) }),
        Entry(keyword: "slice", synopsis: ["NAME: slice N..M [every D] [upstream|downstream]"], actsOnConnection: true, parse: { .proxyFault(try $0.parseProxyFault(.slice)) }),
        Entry(keyword: "hold", synopsis: ["NAME: hold [upstream|downstream]"], actsOnConnection: true, parse: { .proxyFault(try $0.parseProxyFault(.hold)) }),
        Entry(keyword: "release", synopsis: ["NAME: release [upstream|downstream]"], actsOnConnection: true, parse: { .proxyFault(try $0.parseProxyFault(.release)) }),
        Entry(keyword: "cut", synopsis: ["NAME: cut [after N bytes] [upstream|downstream]"], actsOnConnection: true, parse: { .proxyFault(try $0.parseProxyFault(.cut)) }),
        Entry(keyword: "reset", synopsis: ["NAME: reset [upstream|downstream]"], actsOnConnection: true, parse: { .proxyFault(try $0.parseProxyFault(.reset)) }),
        Entry(keyword: "clear", synopsis: ["NAME: clear [upstream|downstream]"], actsOnConnection: true, parse: { .proxyFault(try $0.parseProxyFault(.clear)) }),
        Entry(keyword: "starttls", synopsis: ["starttls [TLS OPTIONS] [expect tls-failure]   (client role on a connect, server role on an accept)"], actsOnConnection: true, parse: {
            .startTLS(try $0.tlsOptions(TLSOptions.allOptions, after: "starttls"), expectFailure: try $0.expectTLSFailure(after: "starttls"))
        }),
    ]

    package static let statementKeywords: [String] = statements.map(\.keyword)

    package static func entry(_ keyword: String) -> Entry? {
        statements.first { $0.keyword == keyword }
    }

    /// The reference text of every statement, as `tcpprobe grammar` prints it.
    package static var reference: String {
        statements.flatMap(\.synopsis).joined(separator: "\n")
    }
}
