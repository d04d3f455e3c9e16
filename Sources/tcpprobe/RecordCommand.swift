import ArgumentParser
import FoundationEssentials
import ProbeCapture
import ProbeHost
import ProbeRunner
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

/// `tcpprobe record --listen A --to B`: a proxy that writes each client's conversation, when
/// the client leaves, as a scenario that replays it (as `tcpprobe import` writes one).
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Forward --listen to --to and write each connection, when it ends, as a scenario; Ctrl-C stops it."
    )

    @Option(help: ArgumentHelp("Where to listen, HOST:PORT.", valueName: "ADDRESS"))
    var listen: String

    @Option(help: ArgumentHelp("Where to forward, HOST:PORT: the server the scenarios will replay against.", valueName: "ADDRESS"))
    var to: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write, {n} standing for the connection's number (default recorded-{n}.scn).", valueName: "FILE"))
    var output = "recorded-{n}.scn"

    @Option(name: .customLong("as"), help: "The side the probe plays in the scenarios: client or server.")
    var role: Role = .client

    @Option(name: .customLong("mask"), help: ArgumentHelp("Expect what this regex matches as a regex group, not as recorded; repeat for more.", valueName: "REGEX"))
    var masks: [String] = []

    func validate() throws {
        guard Address.parse(listen) != nil else { throw ValidationError("--listen: '\(listen)' is not HOST:PORT") }
        guard Address.parse(to) != nil else { throw ValidationError("--to: '\(to)' is not HOST:PORT") }
        for mask in masks where (try? Regex(mask)) == nil { throw ValidationError("--mask: '\(mask)' is not a regex") }
    }

    /// The file for connection `number`: {n} replaced, or the number before the extension.
    static func path(_ template: String, _ number: Int) -> String {
        if template.contains("{n}") { return template.split(separator: "{n}", omittingEmptySubsequences: false).joined(separator: String(number)) }
        guard number > 1 else { return template }
        let dot = template.lastIndex(of: ".") ?? template.endIndex
        return template[..<dot] + "-\(number)" + template[dot...]
    }

    func run() async throws {
        let (front, back) = (Address.parse(listen)!, Address.parse(to)!)
        let (template, role, masks) = (output, role, masks)
        let proxy: StandaloneProxy
        do {
            proxy = try await StandaloneProxy(front: front, back: back, faults: [], report: { _ in }, recorded: { conversation, number in
                var writer = ScenarioWriter(recordedBy: "tcpprobe record --listen \(front) --to \(back)", connection: number)
                writer.role = role
                writer.masks = masks
                let path = Self.path(template, number)
                do {
                    try Data(writer.write(conversation).utf8).write(to: URL(fileURLWithPath: path))
                    print("connection \(number): \(conversation.client) → \(back), \(conversation.turns.count) turns, written to \(path)")
                } catch {
                    print("connection \(number): cannot write \(path): \(error)")
                }
                StandardOutput.flush()
            })
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.environmentError
        }
        print("tcpprobe record: listening on \(Address(host: front.host, port: proxy.port)), forwarding to \(back)")
        StandardOutput.flush()
        await Interrupt.wait()
        await proxy.close()
    }
}
