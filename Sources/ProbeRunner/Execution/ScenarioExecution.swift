import FoundationEssentials
import NIOCore
import NIOPosix
import ProbeCapture
import ProbeHost
import ProbeResults
import ProbeScript

/// The state of one run of one scenario, and the dispatch of its statements to executors.
final class ScenarioExecution {
    /// The scenario and the run's options, one instance for the run and all its `parallel` copies.
    private final class Inputs {
        let scenario: Scenario
        let options: RunOptions

        init(_ scenario: Scenario, _ options: RunOptions) {
            self.scenario = scenario
            self.options = options
        }
    }

    private let inputs: Inputs
    var scenario: Scenario { _read { yield inputs.scenario } }
    var options: RunOptions { _read { yield inputs.options } }
    let group: EventLoopGroup
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant

    /// The variables set so far. `{copy}` and `{i}` are not kept here, so a `parallel` copy
    /// shares its parent's dictionary until it sets a variable of its own.
    var variables: [String: String]
    /// The values among them that are not UTF-8 text (a regex group over binary input), kept
    /// byte for byte: `{name}` writes these bytes, never their text.
    var binaryValues: [String: [UInt8]] = [:]
    /// `{i}`: the turn of the innermost `repeat` running.
    var repeatTurn: Int?
    /// Its connections and listeners, and the current connection.
    var table = ConnectionTable()
    var subjects = ScenarioSubjects()

    /// What `set` statements have set so far.
    var settings = Settings()

    var random: SeededGenerator
    let seed: UInt64
    var runRecord: RunRecord
    /// Its capture and wire checks; a `parallel` copy shares its parent's. Each init sets it: a
    /// default value would make every copy a session of its own first, which reads the whole
    /// environment (a seventh of a 19,800-copy block's CPU time).
    var wire: WireSession
    /// The regexes expects have compiled (none kept in copies of a `parallel` block).
    let regexCache: RegexCache
    /// The addresses of the host names connected to, shared with the copies of `parallel` blocks.
    let hostNames: HostNames
    /// The next address of each `connect … from NETWORK/PREFIX`, shared with `parallel` copies.
    let sourceAddresses: SourceAddresses

    /// Where a copy of a `parallel` block records its expect latencies (nil outside one).
    let latencies: LatencyRecorder?
    /// Which copy of a `parallel` block this is; nil for the scenario itself.
    let copyIndex: Int?

    /// Where this run stands in a `split sweep` (copies of a `parallel` block take the parent's).
    var sweep: SweepRun

    init(scenario: Scenario, options: RunOptions, group: EventLoopGroup, sweep: SweepRun.Mode = .discover) {
        self.inputs = Inputs(scenario, options)
        self.group = group
        self.sweep = SweepRun(sweep)
        self.start = clock.now
        self.variables = options.variables
        self.seed = options.seed ?? UInt64.random(in: 1...UInt64.max)
        self.random = SeededGenerator(seed: seed)
        self.copyIndex = nil
        self.latencies = nil
        self.regexCache = RegexCache()
        self.hostNames = HostNames()
        self.sourceAddresses = SourceAddresses()
        self.runRecord = RunRecord(keepsLog: true)
        self.wire = WireSession()
    }

    /// A copy of a `parallel` block: the parent's clock, settings, variables and capture, with
    /// connections, subjects and `{copy}` of its own.
    init(parent: ScenarioExecution, copy: Int, latencies: LatencyRecorder) {
        inputs = parent.inputs
        group = parent.group
        start = parent.start
        sweep = parent.sweep
        seed = parent.seed &+ UInt64(copy + 1)
        random = SeededGenerator(seed: seed)
        variables = parent.variables
        binaryValues = parent.binaryValues
        repeatTurn = parent.repeatTurn
        settings = parent.settings
        wire = WireSession(sharingCaptureOf: parent.wire)
        runRecord = RunRecord(keepsLog: false)
        table = ConnectionTable(continuingFrom: parent.table)
        copyIndex = copy
        self.latencies = latencies
        regexCache = parent.regexCache
        hostNames = parent.hostNames
        sourceAddresses = parent.sourceAddresses
    }

    var elapsed: Duration { clock.now - start }

    var remaining: Duration { settings.deadline - elapsed }

    /// Logs `message`; a `parallel` copy, which keeps no log, does not build it.
    func record(_ statement: Statement?, _ message: @autoclosure () -> String) {
        guard runRecord.keepsLog else { return }
        runRecord.log(message(), at: elapsed, statement?.location)
    }

    /// Logs the message `message` builds, only if the log keeps it: for the steps a soak repeats
    /// a million times. `message` captures the values it shows, never the execution.
    func record(_ statement: Statement?, deferred message: @escaping () -> String) {
        guard runRecord.keepsLog else { return }
        runRecord.log(at: elapsed, statement?.location, message)
    }

    /// Sets the variables a regex's named groups took: text as text, other bytes as they are.
    func setCaptures(_ captures: [String: [UInt8]]) {
        for (name, bytes) in captures {
            if let text = String(validating: bytes, as: UTF8.self) {
                variables[name] = text
                binaryValues[name] = nil
            } else {
                variables[name] = String(decoding: bytes, as: UTF8.self)
                binaryValues[name] = bytes
            }
        }
    }

    func lookup(_ name: String) -> String? {
        if name == VariableChecker.repeatIndex, let repeatTurn { return String(repeatTurn) }
        if name == VariableChecker.parallelCopy, let copyIndex { return String(copyIndex) }
        return variables[name]
    }

    // MARK: - Running

    func run() async throws {
        do {
            try wire.start(for: scenario, options.capture, &runRecord, at: elapsed)
            let done = group.next().makePromise(of: Void.self)
            StepMachine(self, running: scenario.statements, then: .scenario(done)).advance()
            try await done.futureResult.get()
            try await judgeUnreadAtEnd()
            if let daemonized = subjectsInTheBackground().first { throw daemonized }
        } catch {
            runRecord.failedAt = elapsed
            runRecord.notes += subjectsInTheBackground().map { "line \($0.location.line): \($0.message)" }
            await finish(passed: false)
            throw error
        }
        await finish(passed: true)
    }

    /// Closes what the run left open, stops its subjects and its capture.
    private func finish(passed: Bool) async {
        await closeAll()
        runRecord.notes += table.proxies.keys.sorted().flatMap { name in table.proxies[name]!.problems.map { "proxy '\(name)': \($0)" } }
        await stopSubjects(reportOutput: !passed)
        wire.verifyInjectedSplits(&runRecord)
        wire.finish(passed: passed, options.capture, keepingEventsOf: options.recordWire ? table.all : nil,
                    proxies: table.proxies.keys.sorted().compactMap { table.proxies[$0] }, &runRecord)
    }

    func closeAll() async {
        await table.closeAll(on: group.next())
    }

    @inline(never)
    func deadlinePassed(before statement: Statement) -> StepFailure {
        failure(statement, "the scenario deadline of \(format(settings.deadline)) passed before this step")
    }

    /// Tells the run's watchers that the scenario's own `statement` begins (not a copy's).
    func announce(_ statement: Statement) {
        guard copyIndex == nil else { return }
        options.onStep?(scenario.path, statement.text)
        if options.recordWire { runRecord.begin(statement, at: elapsed) }
    }

    /// Does a statement's synchronous work at once, and returns what is left to await (nil:
    /// nothing, the statement is done). The dispatch is synchronous: an async switch over every
    /// kind of statement keeps a frame slot for each case's payload, and that frame stays
    /// allocated while the step waits (5.5 KB).
    func step(for statement: Statement) throws -> (() async throws -> Void)? {
        let done: (() async throws -> Void)? = nil
        switch statement.kind {
        case .title, .tags, .include:
            return done
        case .set(let setting):
            try apply(setting, statement)
            return done
        case .variable(let name, let value):
            try define(name, value, statement)
            return done
        case .use(let name):
            guard table.use(name.text) else { throw unknownConnection(name, statement) }
            return done
        case .connect(let step):
            return { try await self.connect(step, statement) }
        case .send(let step):
            let prepared = try prepareSend(step, statement)
            return { try await self.send(prepared) }
        case .expect(let expectation, let within):
            return { try await self.awaitStep { try self.expect(expectation, within: within, statement, done: $0) } }
        case .sleep(let duration):
            let length = try resolve(duration, "a duration", Quantity.duration)
            return { try await self.sleep(for: length, statement) }
        case .close:
            let connection = try target(statement)
            return {
                try await self.judgeUnread(connection, statement)
                try? await connection.close(at: statement.location).get()
                self.record(statement, "\(connection.label): closed (FIN)")
            }
        case .shutdownWrite:
            let connection = try target(statement)
            return {
                do { try await connection.shutdownWrite() } catch { throw self.failure(statement, "shutdown write failed: \(error)", connection) }
                self.record(statement, "\(connection.label): shut down writing (FIN), still reading")
            }
        case .abort:
            let connection = try target(statement)
            return {
                try await self.judgeUnread(connection, statement)
                do { try await connection.abort(at: statement.location) } catch { throw self.failure(statement, "abort failed: \(error)", connection) }
                self.record(statement, "\(connection.label): aborted (RST)")
            }
        case .pauseReading, .resumeReading:
            let connection = try target(statement)
            let pause = statement.kind == .pauseReading
            return {
                try await connection.setPaused(pause)
                self.record(statement, "\(connection.label): \(pause ? "paused" : "resumed") reading")
            }
        case .repeatBlock:
            preconditionFailure("a StepMachine runs the turns of a repeat")
        case .readSlowly(let read):
            return { try await self.readSlowly(read, statement) }
        case .assertWire(let assertion):
            return { try await self.assertWire(assertion, statement) }
        case .listen(let name, let address, let tls):
            return { try await self.listen(name, address, tls: tls, statement) }
        case .accept(let name, let listener, let within, let expectTLSFailure, let webSocket):
            return { try await self.accept(name, on: listener, within: within, expectTLSFailure: expectTLSFailure, webSocket: webSocket, statement) }
        case .startTLS(let options, let expectFailure):
            return { try await self.startTLS(options, expectFailure: expectFailure, statement) }
        case .assertTLS(let assertion):
            try assertTLS(assertion, statement)
            return done
        case .spawn(let step):
            return { try await self.spawn(step, statement) }
        case .kill(let name, let signal):
            return { try await self.kill(name, signal: signal, statement) }
        case .expectExit(let expectation):
            return { try await self.expectExit(expectation, statement) }
        case .expectOutput(let expectation):
            return { try await self.expectOutput(expectation, statement) }
        case .input(let input):
            return { try await self.input(input, statement) }
        case .parallel(let count, let body):
            return { try await self.parallel(count, body, statement) }
        case .proxy(let name, let front, let back):
            return { try await self.proxy(name, front: front, back: back, statement) }
        case .proxyFault(let fault):
            return { try await self.proxyFault(fault, statement) }
        case .expectProxied(let direction, let expectation, let within):
            return {
                let watch = try await self.proxyWatch(direction, within: within, statement)
                try await self.expect(expectation, within: within, watching: watch, statement)
            }
        }
    }

    func repeatTimes(_ count: Argument<Int>) throws -> Int {
        try resolve(count, "a repeat count", Quantity.integer)
    }

    private func apply(_ setting: Setting, _ statement: Statement) throws {
        switch setting {
        case .timeout(let value): settings.timeout = try resolve(value, "a duration", Quantity.duration)
        case .deadline(let value): settings.deadline = try resolve(value, "a duration", Quantity.duration)
        case .terminator(let value): settings.terminator = value
        case .maxLine(let value): settings.maxLine = try resolve(value, "a size", Quantity.size)
        case .capture: break // read before the run starts: see WireSession.isNeeded
        case .unread(let policy): settings.unread = policy
        case .framing(.lines): settings.messageFraming = .lines
        case .framing(.length(let width, let bigEndian)):
            let bytes = try resolve(width, "a header width (1, 2, 4 or 8 bytes)", Quantity.integer)
            guard LengthHeader.widths.contains(bytes) else { throw failure(statement, "a length header is 1, 2, 4 or 8 bytes, not \(bytes)") }
            settings.messageFraming = .length(LengthHeader(width: bytes, bigEndian: bigEndian))
        case .webSocketAutoPong(let on): settings.webSocketAutoPong = on
        case .maxMessage(let value):
            let size = try resolve(value, "a size", Quantity.size)
            guard (1...(1 << 30)).contains(size) else { throw failure(statement, "max-message takes 1 byte to 1GiB, not \(size)") }
            settings.maxMessage = size
        }
    }

    private func define(_ name: Name, _ value: VariableValue, _ statement: Statement) throws {
        if options.variables[name.text] != nil { return } // --var wins over the default
        switch value {
        case .text(let template):
            variables[name.text] = template.renderString(lookup)
        case .freePort:
            guard let port = FreePort.pick() else {
                throw StepFailure(.environment, at: statement.location, step: statement.text, message: "cannot find a free TCP port on 127.0.0.1")
            }
            variables[name.text] = String(port)
            record(statement, "\(name.text) = \(port) (free port)")
        }
    }

    // MARK: - Helpers shared by the executors

    /// The argument's value, parsing its rendered text when it interpolates variables.
    func resolve<Value>(_ argument: Argument<Value>, _ what: String, _ parse: (String) -> Value?) throws -> Value {
        switch argument.form {
        case .literal(let value):
            return value
        case .interpolated(let template):
            let text = template.renderString(lookup)
            guard let value = parse(text) else {
                throw StepFailure(at: argument.location, step: argument.text,
                                  message: "'\(argument.text)' gives '\(text)', which is not \(what)")
            }
            return value
        }
    }

    /// The connection a step acts on: its prefix, else the last `use`d or opened one.
    func target(_ statement: Statement, allowClosed: Bool = false) throws -> ProbeConnection {
        let connection: ProbeConnection
        if let name = statement.connection {
            guard let named = table.connection(named: name.text) else { throw unknownConnection(name, statement) }
            connection = named
        } else {
            guard let current = table.current else {
                throw failure(statement, "no connection to act on: open one with 'connect' or 'accept' first")
            }
            connection = current
        }
        if !allowClosed, let closedAt = connection.closedAt {
            throw failure(statement, "\(connection.label) was closed by the probe at \(closedAt.fileAndLine)", connection)
        }
        return connection
    }

    func unknownConnection(_ name: Name, _ statement: Statement) -> StepFailure {
        let open = table.names
        let known = open.isEmpty ? "no named connection is open" : "open: " + open.joined(separator: ", ")
        return failure(statement, "no connection named '\(name.text)' (\(known))")
    }

    func failure(_ statement: Statement, _ message: String, _ connection: (any ExpectSource)? = nil, waited: Duration? = nil) -> StepFailure {
        StepFailure(at: statement.location, step: statement.text, message: message, connection: connection?.label, waited: waited)
    }

    /// Adds the last bytes the connection (or proxy direction) received to a failure.
    func withRecentBytes(_ failure: StepFailure, _ connection: any ExpectSource) async -> StepFailure {
        var failure = failure
        let recent = await connection.recentBytes()
        failure.recentBytes = recent.bytes
        failure.totalReceived = recent.total
        return failure
    }

    /// The wait for a step: its own limit, cut short by the scenario deadline.
    func limit(_ wait: Duration) -> (wait: Duration, byDeadline: Bool) {
        let left = max(.zero, remaining)
        return left < wait ? (left, true) : (wait, false)
    }

    func sleep(for duration: Duration, _ statement: Statement) async throws {
        let (wait, byDeadline) = limit(duration)
        try await pause(for: wait)
        if byDeadline { throw sleepCutShort(statement) }
    }

    /// A sleep the scenario's deadline cut short.
    func sleepCutShort(_ statement: Statement) -> StepFailure {
        failure(statement, "the scenario deadline of \(format(settings.deadline)) passed during the sleep")
    }

    /// Waits on the run's own event loop, whose timer wakes the thread that runs this task:
    /// `Task.sleep` waits on a Dispatch timer, with its leeway, and then hops back to the loop,
    /// which left `every 10ms` chunks up to 10 ms late on a loaded machine.
    func pause(for duration: Duration) async throws {
        let timer = group.next().scheduleTask(in: duration.timeAmount) {}
        try await withTaskCancellationHandler {
            do {
                try await timer.futureResult.get()
            } catch EventLoopError.cancelled {
                throw CancellationError()
            }
        } onCancel: {
            timer.cancel()
        }
    }

    /// Sleeps until `instant`, if it is still ahead.
    func sleep(until instant: ContinuousClock.Instant, _ statement: Statement) async throws {
        let now = clock.now
        if instant > now { try await sleep(for: instant - now, statement) }
    }

    func format(_ duration: Duration) -> String { DurationFormat.short(duration) }

    /// Runs `body` as a task on the run's loop, for what a step must await outside a task of
    /// its own: a `parallel` copy's step with no event-loop form, a failure's report.
    func onTask(_ body: @escaping () async throws -> Void) -> EventLoopFuture<Void> {
        let loop = group.next()
        let promise = loop.makePromise(of: Void.self)
        let work = UncheckedBox(body)
        Task(executorPreference: EventLoopTaskExecutor(loop)) {
            do { promise.succeed(try await work.value()) } catch { promise.fail(error) }
        }
        return promise.futureResult
    }
}

/// Hands a non-Sendable value to exactly one task.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Duration {
    /// The duration as NIO's `TimeAmount`.
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
