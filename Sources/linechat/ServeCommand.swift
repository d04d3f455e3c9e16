import ArgumentParser
import Foundation
import Transports

/// `linechat serve`: the chat server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the chat server.")

    @Option(help: "bsd, dispatch or nio.")
    var transport: TransportKind = .nio

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one).")
    var port = 0

    @Option(help: "The maximum line length.")
    var maxLine = LineFraming.defaultMaximumLength

    @Option(help: "Plant a bug (see `linechat faults`).")
    var fault: Fault?

    @Flag(help: "Write the size of each read to stderr (\"read N\"), for benchmarks.")
    var traceReads = false

    @Option(name: .customLong("tls"), parsing: .upToNextOption,
            help: ArgumentHelp("Serve over TLS with this certificate chain and key (PEM files); nio transport only.", valueName: "CERT KEY"))
    var tls: [String] = []

    @Flag(help: "Speak WebSocket: one chat line per text message, the maximum line length the maximum message (nio transport only).")
    var websocket = false

    @Flag(help: "With --websocket: echo each message back as it came, text or binary (the WebSocket suite's subject), instead of the chat.")
    var echo = false

    @Flag(help: "Speak HTTP/2 instead of the chat, in cleartext (prior knowledge) or with --tls over TLS (ALPN h2): every request is answered with a small page (the HTTP/2 suite's subject; nio transport only).")
    var http2 = false

    @Option(help: ArgumentHelp("Send each client \"ping\" every DURATION (250ms, 2s), and drop one that has not answered \"pong\" by the next.", valueName: "DURATION"))
    var heartbeat: HeartbeatInterval?

    func validate() throws {
        guard tls.isEmpty || tls.count == 2 else { throw ValidationError("--tls takes two files: CERT KEY") }
        if !tls.isEmpty, transport != .nio { throw ValidationError("--tls runs on the nio transport only") }
        if websocket, transport != .nio { throw ValidationError("--websocket runs on the nio transport only") }
        if heartbeat != nil, websocket { throw ValidationError("--heartbeat pings in lines: not with --websocket") }
        if echo, !websocket { throw ValidationError("--echo goes with --websocket") }
        if http2, websocket || heartbeat != nil || transport != .nio {
            throw ValidationError("--http2 serves HTTP/2 on the nio transport: not with --websocket or --heartbeat")
        }
        if let fault, (fault.http2Quirk != nil) != http2 {
            throw ValidationError(http2 ? "fault \(fault.rawValue) is not an HTTP/2 fault" : "fault \(fault.rawValue) needs --http2")
        }
        if let fault, !http2, (fault.webSocketQuirk != nil) != websocket {
            throw ValidationError(websocket ? "fault \(fault.rawValue) is not a WebSocket fault" : "fault \(fault.rawValue) needs --websocket")
        }
        if let fault, websocket, fault.isInEcho != echo {
            throw ValidationError(echo ? "fault \(fault.rawValue) is the chat's, not the echo server's" : "fault \(fault.rawValue) needs --echo")
        }
    }

    func run() async throws {
        let maximum = maxLine
        let (fault, traceReads) = (self.fault, self.traceReads)
        let makeUnframer = { @Sendable () -> any LineUnframer in
            let unframer: any LineUnframer = fault.map { FaultyUnframer(fault: $0, maximumLength: maximum) } ?? LineFraming(maximumLength: maximum)
            return traceReads ? ReadTracingUnframer(inner: unframer) : unframer
        }
        let serverTLS = tls.isEmpty ? nil : TransportTLS.server(certificate: tls[0], key: tls[1])
        if http2 {
            let server = try HTTP2PageServer(host: host, port: port, quirks: fault?.http2Quirk ?? [], tls: serverTLS)
            announce(port: server.port)
            try await server.run()
            return
        }
        if echo {
            let server = try WebSocketEchoServer(host: host, port: port, maxMessage: Self.largestEcho, tls: serverTLS,
                                             quirks: fault?.webSocketQuirk ?? [])
            announce(port: server.port)
            try await server.run()
            return
        }
        let listener: any TransportListener
        if websocket {
            listener = try WebSocketTransportListener(host: host, port: port, maxMessage: maximum, tls: serverTLS, quirks: fault?.webSocketQuirk ?? [])
        } else if let serverTLS {
            listener = try NIOTransportListener(host: host, port: port, tls: serverTLS, makeUnframer: makeUnframer)
        } else {
            listener = try transport.listen(host: host, port: port, makeUnframer: makeUnframer)
        }
        announce(port: listener.port)
        await ChatServer(listener: listener, heartbeat: heartbeat?.duration, quirks: fault?.chatQuirks ?? []).run()
    }
}

extension ServeCommand {
    /// The largest message `--echo` takes: Autobahn's largest (its category 9) is 16 MiB.
    static let largestEcho = 16 << 20

    /// Says where it listens and how, on one line of stdout.
    func announce(port: Int) {
        let line = "linechat listening on \(host.contains(":") ? "[\(host)]" : host):\(port) (transport \(transport.rawValue)"
            + (tls.isEmpty ? "" : ", TLS") + (websocket ? ", WebSocket" : "") + (http2 ? ", HTTP/2" : "") + (echo ? ", echo" : "") + "\(fault.map { ", fault \($0.rawValue)" } ?? ""))"
        // Straight to descriptor 1, unbuffered: a readiness wait on the line sees it at once.
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// `linechat faults`: the bugs `--fault` can plant.
struct FaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "faults", abstract: "List the bugs --fault can plant.")

    func run() {
        for fault in Fault.allCases { print("\(fault.rawValue)\t\(fault.commands)\t\(fault.summary)") }
    }
}
