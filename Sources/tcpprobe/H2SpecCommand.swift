import ArgumentParser
import FoundationEssentials
import ProbeH2Spec
import ProbeReport
import ProbeRunner

/// `tcpprobe h2spec [SPEC…] -h HOST -p PORT …`: h2spec's command line, run on tcpprobe's HTTP/2
/// suite (Scenarios/http2-server), with h2spec's console layout, summary line and JUnit
/// report, so a CI step that ran h2spec runs this unchanged.
struct H2SpecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "h2spec",
        abstract: "Test an HTTP/2 server with h2spec's cases and command line, on tcpprobe's HTTP/2 suite.",
        discussion: """
            SPEC selects as h2spec does: generic, http2, hpack, a section (http2/6.5, the \
            sections under it too) or a case (hpack/2.3.3/1). Exits 1 when a case fails, 0 \
            otherwise. The strict cases (-S) are those h2spec marks strict.
            """,
        helpNames: [.long]
    )

    @Argument(help: ArgumentHelp("Specs, sections or cases to run (all when none).", valueName: "spec"))
    var specs: [String] = []

    @Option(name: [.customShort("h"), .long], help: "Target host.")
    var host = "127.0.0.1"

    @Option(name: [.customShort("p"), .long], help: "Target port (required).")
    var port: Int?

    @Option(name: [.customShort("P"), .long], help: "Target path.")
    var path = "/"

    @Option(name: [.customShort("o"), .long], help: "Seconds each step waits.")
    var timeout = 2

    @Option(name: .customLong("max-header-length"), help: "Length of the dummy header values.")
    var maxHeaderLength = 4000

    @Option(name: [.customShort("j"), .customLong("junit-report")], help: ArgumentHelp("Path for the JUnit report.", valueName: "file"))
    var junitReport: String?

    @Flag(name: [.customShort("S"), .long], help: "Run the strict cases too.")
    var strict = false

    @Flag(name: .customLong("dryrun"), help: "Print only the titles of the cases.")
    var dryRun = false

    @Flag(name: [.customShort("t"), .long], help: "Connect over TLS (ALPN h2).")
    var tls = false

    @Flag(name: [.customShort("k"), .long], help: "Do not verify the server's certificate.")
    var insecure = false

    @Option(name: [.customShort("c"), .long], help: ArgumentHelp("The TLS 1.2 cipher suites to offer, colon-separated (OpenSSL's names).",
                                                                 valueName: "ciphers"))
    var ciphers: String?

    @Flag(name: [.customShort("v"), .long], help: "Print each case's step log.")
    var verbose = false

    @Flag(name: .customLong("version"), help: "Print tcpprobe's version and exit, as h2spec's --version does.")
    var printVersion = false

    @Option(help: ArgumentHelp("The suite's folder (default: Scenarios/http2-server here, else the installed one).", valueName: "dir"))
    var suite: String?

    @Option(help: "Cases run at once.")
    var jobs = 4

    func validate() throws {
        // Neither prints anything of a server's, so neither needs its port.
        guard !printVersion, !dryRun else { return }
        guard let port else { throw ValidationError("-p PORT is required: the port of the server to test") }
        guard (1...65535).contains(port) else { throw ValidationError("-p PORT must be 1-65535") }
        guard timeout >= 1 else { throw ValidationError("-o SECONDS must be at least 1") }
        guard maxHeaderLength >= 1, maxHeaderLength <= 1 << 20 else { throw ValidationError("--max-header-length must be 1 to 1048576") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        if printVersion { return print("Version: tcpprobe \(ReleaseVersion.current)") }
        var options = H2SpecOptions()
        (options.host, options.port, options.path, options.timeout) = (host, port ?? 0, path, timeout)
        (options.maxHeaderLength, options.tls, options.insecure, options.strict, options.specs) = (maxHeaderLength, tls, insecure, strict, specs)
        (options.ciphers, options.verbose) = (ciphers, verbose)
        let run: H2SpecRun
        do {
            let found = ShippedSuite.folder("http2-server")
            guard let folder = suite ?? found.folder else {
                throw H2SpecError("cannot find the suite: neither \(found.lookedAt.joined(separator: " nor ")); name it with --suite")
            }
            run = try H2SpecRun(options: options, suite: folder, jobs: jobs)
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        let console = H2SpecConsole(catalog: run.catalog, selection: run.selection, strict: strict)
        if dryRun {
            print(console.dryRun(), terminator: "")
            return
        }
        let clock = ContinuousClock()
        let started = clock.now
        // The server is reached while the suite loads: the one waits on the network, the other
        // keeps the cores busy (about 2.5 and 6 ms here, with a server that answers at once).
        async let problem = run.unreachable()
        let loaded = Result { try run.scenarios() }
        if let problem = await problem {
            // h2spec stops so, with its status 1.
            Terminal.printError("error: \(problem)")
            throw ExitCode.failure
        }
        if case .failure(let error) = loaded {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        let results = await run.run(try loaded.get())
        print(console.report(results, elapsed: clock.now - started, verbose: verbose), terminator: "")
        if let junitReport {
            try ReportWriter.write(H2SpecJUnit.render(run.catalog, results), to: junitReport)
        }
        if results.values.contains(where: { $0.verdict == .failed }) { throw ExitCode.failure }
    }
}
