import ArgumentParser
import Transports

/// `linechat connect`: a client that joins, sends its stdin lines, and prints what it receives;
/// it leaves when its input ends or the server hangs up, and exits 1 after refusing a line.
struct ConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "connect", abstract: "Join a chat server as a client.")

    @Argument(help: "HOST:PORT of the server ([::1]:PORT for IPv6).")
    var address: String

    @Option(help: "bsd, dispatch or nio.")
    var transport: TransportKind = .nio

    @Option(help: "The name to join with.")
    var name: String

    @Option(help: "Plant a bug in how it reads or ends lines (see `linechat faults`).")
    var fault: Fault?

    @Flag(help: "Connect over TLS, verifying the server's certificate (nio transport only).")
    var tls = false

    @Option(help: ArgumentHelp("With --tls: trust the CA certificates in this PEM file instead of the system's.", valueName: "FILE"))
    var ca: String?

    func validate() throws {
        guard Self.split(address) != nil else { throw ValidationError("expected HOST:PORT, got '\(address)'") }
        if tls, transport != .nio { throw ValidationError("--tls runs on the nio transport only") }
        if ca != nil, !tls { throw ValidationError("--ca goes with --tls") }
        if let fault, !fault.isInClient {
            let client = Fault.allCases.filter(\.isInClient).map(\.rawValue).joined(separator: ", ")
            throw ValidationError("'\(fault.rawValue)' is a server's bug; a client plants only \(client)")
        }
    }

    static func split(_ address: String) -> (host: String, port: Int)? {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    func run() async throws {
        let (host, port) = Self.split(address)!
        let unframer: any LineUnframer = fault.map { FaultyUnframer(fault: $0, maximumLength: LineFraming.defaultMaximumLength) } ?? LineFraming()
        // A host name is sent as SNI and the certificate verified for it; an IP address is not
        // sent (SNI carries names only), and the certificate's chain is still verified.
        let serverName = host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : host
        let connection = tls ? NIOTransport(connectingTo: host, port: port, unframer: unframer, tls: .client(trusting: ca, serverName: serverName))
            : transport.connect(host: host, port: port, unframer: unframer)
        let ending = await ChatClient(transport: connection, name: name, quirks: fault?.chatQuirks ?? []).run()
        if ending.exitStatus != 0 { throw ExitCode(ending.exitStatus) }
    }
}
