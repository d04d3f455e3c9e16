import FoundationEssentials
import NIOCore
import NIOPosix
import ProbeHost
import ProbeResults
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

/// The subject steps of a scenario, or of one copy of a `parallel` block: `spawn` and its
/// readiness, `kill`, `expect exit`, and at the end the stopping of what it spawned (with what
/// they left in the background). It owns the subjects it spawned. Its streams' steps are in
/// SubjectSteps+Streams.
final class SubjectSteps {
    private(set) var subjects = ScenarioSubjects()
    unowned let context: any StepContext
    private let connections: ConnectionTable
    private let wire: WireSession
    /// The run's networks, which a subject may be spawned in.
    private let networks: NetworkTable
    /// The time spent stopping subjects, which the report states.
    private(set) var stoppingTime = Duration.zero

    init(context: any StepContext, connections: ConnectionTable, wire: WireSession, networks: NetworkTable) {
        self.context = context
        self.connections = connections
        self.wire = wire
        self.networks = networks
    }

    /// Runs `statement`: `spawn`, `kill`, `expect exit`, `expect stdout|stderr` or `input`.
    func run(_ statement: Statement) async throws {
        switch statement.kind {
        case .spawn(let step): try await spawn(step, statement)
        case .kill(let name, let signal): try await kill(name, signal: signal, statement)
        case .expectExit(let expectation): try await expectExit(expectation, statement)
        case .expectOutput(let expectation): try await expectOutput(expectation, statement)
        case .input(let input): try await self.input(input, statement)
        default: preconditionFailure("not a subject step: \(statement.text)")
        }
    }

    /// True when it has spawned nothing.
    var isEmpty: Bool { subjects.isEmpty }

    /// Where a subject runs, as an absolute path: `cwd "DIR"`, or the folder of the file the
    /// step is written in, relative paths resolved from that folder as `include` resolves them.
    private func workingDirectory(_ step: SpawnStep, _ statement: Statement) throws -> String {
        let given = step.workingDirectory?.renderString(context.lookup) ?? "."
        var path = ScenarioLoader.resolve(given, from: statement.location.file)
        if !path.hasPrefix("/") { path = joinPath(FileManager.default.currentDirectoryPath, path) }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory else {
            throw StepFailure(statement, SubjectFailure.notADirectory(path: path))
        }
        return path
    }

    private func spawn(_ step: SpawnStep, _ statement: Statement) async throws {
        guard subjects[step.name.text] == nil else {
            throw StepFailure(statement, CommonFailure.nameTaken(what: "subject", name: step.name.text, state: "running"))
        }
        if let given = step.unlessGiven, context.variables.isGiven(given.text) {
            return context.record(statement, "'\(step.name.text)' not spawned: \(given.text) is given (unless given \(given.text))")
        }
        let command = step.command.renderString(context.lookup)
        var argv: [String]
        do { argv = try ShellWords.split(command) } catch { throw StepFailure(statement, SubjectFailure.badCommand(error: "\(error)")) }
        guard !argv.isEmpty else { throw StepFailure(statement, SubjectFailure.emptyCommand) }
        let directory = try workingDirectory(step, statement)
        let network = try step.network.map { name in
            guard let network = networks.network(named: name.text) else { throw StepFailure(statement, SubjectFailure.networkNotMade(name: name.text)) }
            return network
        }
        if let network {
            // `ip netns exec` enters the namespace and executes the program in its own process,
            // so the subject's pid stays the program's.
            do { argv[0] = try Subject.locate(argv[0], from: directory) } catch { throw StepFailure(statement, SubjectFailure.cannotStart("\(error)")) }
            argv = ["ip", "netns", "exec", network.namespace.name] + argv
        }
        let environment = Dictionary(step.environment.map { ($0.key, $0.value.renderString(context.lookup)) }) { _, last in last }
        let readinessWait = try step.readinessWithin.map { try context.resolve($0, "a duration", Quantity.duration) } ?? context.settings.timeout
        let targets: [Address]
        if case .listening(let addresses)? = step.readiness {
            targets = try addresses.map { try context.resolve($0, "an address HOST:PORT", Address.parse) }
        } else {
            targets = []
        }
        for target in targets {
            try wire.watch(port: target.port, statement)
            subjects.portOwners[target.port] = step.name.text
            // Readiness is the port listening: a listener already there (a server left from an
            // earlier run, say) would pass it while the subject fails to bind. A network's
            // namespace starts empty.
            if network == nil, ListeningSockets.isListening(port: target.port, for: target.host) == true {
                throw StepFailure(statement, SubjectFailure.portAlreadyListening(subject: step.name.text, port: target.port,
                                                                                 holders: PortHolders.describe(port: target.port)))
            }
        }
        let subject: Subject
        do {
            subject = try Subject.spawn(name: step.name.text, argv: argv, command: command, in: directory, environment: environment, withStdin: step.withStdin)
        } catch {
            throw StepFailure(statement, SubjectFailure.cannotStart("\(error)"))
        }
        subjects[step.name.text] = subject
        let started = context.clock.now
        let (wait, _) = context.limit(readinessWait)
        switch step.readiness {
        case nil:
            context.record(statement, "spawned '\(step.name.text)' (pid \(subject.pid)): \(command)")
            return
        case .listening?:
            for target in targets {
                try await awaitListening(subject, on: target, in: network?.namespace, since: started, within: wait, statement)
                context.record(statement, "spawned '\(step.name.text)' (pid \(subject.pid)), listening on \(target) after \(DurationFormat.short(context.clock.now - started))")
            }
            subjects.readyPorts[step.name.text] = (targets[0], statement)
        case .output(let stream, let literal)?:
            let regex = try context.compile(literal, statement)
            let tail = stream == .stdout ? subject.stdout : subject.stderr
            while true {
                // What it wrote just before exiting may still be on its way to the tail: once it
                // has exited, look at its lines when the stream ends (or half a second on, as a
                // child of its may hold the stream open).
                let exited = subject.hasExited
                if exited { await tail.waitForEnd(upTo: .milliseconds(500)) }
                while let line = tail.takeLine() {
                    // A long line is searched beside the run, as an expect's is: a regex may backtrack for minutes.
                    let search: @Sendable () -> RegexSearch.Found? = { RegexSearch.firstMatch(regex, in: line, readsBytes: false) }
                    let searched: RegexSearch.Found?? = line.utf8.count <= RegexSearch.inlineLimit
                        ? .some(search()) : await SearchThreads.shared.result(of: search, within: wait - (context.clock.now - started))
                    guard let searched else {
                        throw StepFailure(statement, SubjectFailure.readinessStillSearching(subject: step.name.text, stream: stream.rawValue, regex: literal.description,
                                                                                        within: wait, lineBytes: line.utf8.count))
                    }
                    if let found = searched {
                        context.setCaptures(found.captures)
                        context.record(statement, "spawned '\(step.name.text)' (pid \(subject.pid)), ready after \(DurationFormat.short(context.clock.now - started)): \(stream.rawValue) said \"\(line)\"")
                        return
                    }
                }
                if exited {
                    throw StepFailure(statement, SubjectFailure.endedBeforeReady(subject: step.name.text, exit: subject.exitDescription ?? "?",
                                                                             stream: stream.rawValue, regex: literal.description))
                }
                if context.clock.now - started > wait {
                    throw StepFailure(statement, SubjectFailure.notReady(subject: step.name.text, stream: stream.rawValue, regex: literal.description,
                                                                     within: wait, printed: Self.printed(tail, stream)))
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Waits until `subject` listens on `target`, failing when it ends first or `wait` passes.
    private func awaitListening(_ subject: Subject, on target: Address, in namespace: NetworkNamespace?, since started: RunClock.Instant,
                                within wait: Duration, _ statement: Statement) async throws {
        while true {
            if let exit = subject.exitDescription {
                // A server that forks into the background first has its child listen soon after.
                let daemonized = subject.exitCode == 0 && namespace == nil ? await Self.listensSoon(target) : false
                throw StepFailure(statement, SubjectFailure.endedBeforeListening(subject: subject.name, exit: exit, address: "\(target)", daemonized: daemonized,
                                                                                 holders: PortHolders.describe(port: target.port)))
            }
            if let namespace {
                // The namespace's sockets, as the subject's /proc/PID/net shows them once it is in it.
                if namespace.holds(pid: subject.pid), ListeningSockets.isListening(port: target.port, inNetworkOf: subject.pid) == true { return }
            } else if let listening = ListeningSockets.isListening(port: target.port, for: target.host) {
                if listening {
                    // A server that forks into the background after binding listens before its
                    // first process exits 0.
                    if let daemonized = wentToTheBackground(subject, listeningOn: target, statement) { throw daemonized }
                    return
                }
            } else if await TCPReachability.problem(host: target.host, port: target.port, within: .milliseconds(200), on: context.loop) == nil {
                return
            }
            if context.clock.now - started > wait {
                throw StepFailure(statement, SubjectFailure.notListening(subject: subject.name, address: "\(target)", within: wait,
                                                                         holders: PortHolders.describe(port: target.port)))
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// What a subject printed, for a readiness wait that timed out: how much, and when nothing,
    /// the likely cause (output block-buffered into the pipe) and its remedy.
    static func printed(_ tail: OutputTail, _ stream: SpawnStep.OutputStream) -> String {
        let total = tail.tail(lines: 0).total
        guard total == 0 else { return "; it printed \(total.counted("byte")) on \(stream.rawValue), none of them a line that matched" }
        return "; it printed nothing on \(stream.rawValue) (a program whose output is a pipe often holds it in a block buffer: "
            + "run it under `stdbuf -oL`, or make it flush each line)"
    }

    /// The failure for a subject that exited 0 while the port it was made ready on still
    /// listens: its server went on in the background. Nil while that is not so.
    func wentToTheBackground(_ subject: Subject, listeningOn address: Address, _ statement: Statement) -> StepFailure? {
        guard subject.exitCode == 0, !connections.hasListener(onPort: address.port),
              ListeningSockets.isListening(port: address.port, for: address.host) == true else { return nil }
        return StepFailure(statement, SubjectFailure.wentToTheBackground(subject: subject.name, exit: subject.exitDescription ?? "?", address: "\(address)",
                                                                         holders: PortHolders.describe(port: address.port)))
    }

    /// The subjects made ready on a port that have put their server in the background, as
    /// failures at their `spawn`.
    func subjectsInTheBackground() -> [StepFailure] {
        subjects.readyPorts.sorted(by: { $0.key < $1.key }).compactMap { name, port in
            subjects[name].flatMap { wentToTheBackground($0, listeningOn: port.address, port.statement) }
        }
    }


    /// True when `address` listens within a second.
    static func listensSoon(_ address: Address) async -> Bool {
        await Polling.until(within: .seconds(1), every: .milliseconds(10)) {
            ListeningSockets.isListening(port: address.port, for: address.host) == true
        }
    }


    private func kill(_ name: Name, signal: String?, _ statement: Statement) async throws {
        guard let subject = subjects[name.text] else { throw unknownSubject(name, statement) }
        subjects.readyPorts[name.text] = nil
        if let signal {
            let number = Self.signalNumbers[signal] ?? SIGTERM
            subject.signal(number)
            context.record(statement, "sent SIG\(signal) to '\(name.text)'")
        } else {
            let started = context.clock.now
            await subject.stop()
            let took = context.clock.now - started
            stoppingTime += took
            context.record(statement, "stopped '\(name.text)' in \(DurationFormat.short(took)): \(subject.exitDescription ?? "still running")")
        }
    }

    static let signalNumbers: [String: Int32] = [
        "TERM": SIGTERM, "KILL": SIGKILL, "INT": SIGINT, "HUP": SIGHUP, "QUIT": SIGQUIT,
        "USR1": SIGUSR1, "USR2": SIGUSR2, "STOP": SIGSTOP, "CONT": SIGCONT,
    ]

    private func expectExit(_ expectation: ExitExpectation, _ statement: Statement) async throws {
        guard let subject = subjects[expectation.name.text] else { throw unknownSubject(expectation.name, statement) }
        subjects.readyPorts[expectation.name.text] = nil
        let requested = try expectation.within.map { try context.resolve($0, "a duration", Quantity.duration) } ?? context.settings.timeout
        let (wait, byDeadline) = context.limit(requested)
        let started = context.clock.now
        guard await subject.waitForExit(timeout: wait) else {
            throw StepFailure(statement, SubjectFailure.stillRunning(subject: expectation.name.text, byDeadline: byDeadline,
                                                                     wait: byDeadline ? context.settings.deadline : wait),
                              waited: context.clock.now - started)
        }
        if let code = expectation.code {
            let expected = try context.resolve(code, "an exit code", Quantity.integer)
            guard subject.exitCode == expected else {
                throw StepFailure(statement, SubjectFailure.wrongExitCode(subject: expectation.name.text, expected: expected, ended: subject.exitDescription ?? "?"),
                                  waited: context.clock.now - started)
            }
        }
        context.record(statement, "'\(expectation.name.text)' ended: \(subject.exitDescription ?? "?") after \(DurationFormat.short(context.clock.now - started))")
    }

    func unknownSubject(_ name: Name, _ statement: Statement) -> StepFailure {
        StepFailure(statement, CommonFailure.unknown(what: "subject", name: name.text, known: subjects.names, none: "none was spawned", listed: "spawned"))
    }

    /// Stops every subject of the run; on failure, their output goes into the report.
    func stopSubjects(reportOutput: Bool) async {
        let started = context.clock.now
        defer { stoppingTime += context.clock.now - started }
        for subject in subjects.all {
            // A server still running that said nothing explains nothing: only the others are shown.
            if reportOutput, subject.hasExited || subject.stdout.tail().total + subject.stderr.tail().total > 0 {
                context.note(subject.report())
            }
            if await subject.stop() {
                context.note("subject '\(subject.name)' had exited but left processes running in its process group; tcpprobe stopped them")
            }
        }
        // Only after subjects: ten thousand `parallel` copies without any need not look.
        guard !subjects.isEmpty else { return }
        let grace = Subject.gracePeriod / .seconds(1)
        let escaped = StrayProcesses.stop(leftBy: subjects.all, grace: grace)
            + StrayProcesses.stop(listeningOn: subjects.portOwners, grace: grace)
        for (name, processes) in Dictionary(grouping: escaped, by: \.subject).sorted(by: { $0.key < $1.key }) {
            context.note("subject '\(name)' left \(processes.map(\.process).joined(separator: ", ")) running outside its process group (in the background); tcpprobe stopped it")
        }
        StrayProcesses.reapExited()
    }
}
