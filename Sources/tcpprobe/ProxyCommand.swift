import ArgumentParser
import FoundationEssentials
import ProbeHost
import ProbeRunner
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

/// `tcpprobe proxy FRONT to BACK --fault …`: a proxy with faults, outside any scenario, for
/// trying a client and server by hand. Ctrl-C stops it; it prints a line per connection.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Forward FRONT to BACK through faults, for interactive debugging; Ctrl-C stops it.",
        discussion: "Example: tcpprobe proxy 127.0.0.1:7000 to 127.0.0.1:6379 --fault 'delay 50ms' --fault 'slice 1..8 upstream'"
    )

    @ArgumentParser.Argument(help: ArgumentHelp("FRONT to BACK: where to listen, the word 'to', and where to forward.", valueName: "FRONT to BACK"))
    var addresses: [String]

    @Option(name: .customLong("fault"), help: ArgumentHelp("A fault as a scenario's proxy step writes it, without 'NAME:' ('delay 50ms', 'rate 16KiB/s downstream', 'slice 1..8 every 2ms'); repeat for more.", valueName: "FAULT"))
    var faults: [String] = []

    func validate() throws {
        guard addresses.count == 3, addresses[1] == "to", Address.parse(addresses[0]) != nil, Address.parse(addresses[2]) != nil else {
            throw ValidationError("expected FRONT to BACK, as in 127.0.0.1:7000 to 127.0.0.1:6379")
        }
    }

    func run() async throws {
        let (front, back) = (Address.parse(addresses[0])!, Address.parse(addresses[2])!)
        var parsed: [ProxyFault] = []
        for (index, text) in faults.enumerated() {
            let source = SourceFile(path: "--fault \(index + 1)", text: text)
            switch Parser.proxyFault(source) {
            case .success(let fault): parsed.append(fault)
            case .failure(let diagnostic):
                Terminal.printError(DiagnosticRenderer(sources: [source]).render(diagnostic))
                throw ExitCode.invalidInput
            }
        }
        let proxy: StandaloneProxy
        do {
            proxy = try await StandaloneProxy(front: front, back: back, faults: parsed) { line in
                print(line)
                StandardOutput.flush()
            }
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.environmentError
        }
        let shown = faults.isEmpty ? "no faults" : "faults: " + faults.joined(separator: "; ")
        print("tcpprobe proxy: listening on \(Address(host: front.host, port: proxy.port)), forwarding to \(back); \(shown)")
        StandardOutput.flush()
        await Interrupt.wait()
        await proxy.close()
    }
}
