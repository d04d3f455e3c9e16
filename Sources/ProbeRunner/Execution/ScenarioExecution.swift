import FoundationEssentials
import NIOCore
import NIOPosix
import ProbeCapture
import ProbeFraming
import ProbeHost
import ProbeResults
import ProbeScript

/// The state of one run of one scenario, or of one copy of a `parallel` block in it, and the
/// dispatch of its statements to executors. What the whole run shares sits in `run`, one
/// reference a copy takes as it is; the rest is the copy's own.
/// Sendable: confined to the run's event loop: its steps run there, and the callbacks of their
/// writes, expects and tasks come back there (`EventLoopTaskExecutor`).
final class ScenarioExecution: @unchecked Sendable {
    let run: RunContext
    var scenario: Scenario { _read { yield run.scenario } }
    var options: RunOptions { _read { yield run.options } }
    var loop: EventLoop { run.loop }
    var clock: RunClock { run.clock }

    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    /// The variables set so far.
    @exclusivity(unchecked) var variables: VariableValues
    /// `{i}`: the turn of the innermost `repeat` running.
    @exclusivity(unchecked) var repeatTurn: Int?
    /// `{i}`'s text, made once a turn: a turn's send and expect both render it.
    @exclusivity(unchecked) private var repeatTurnText: (turn: Int, text: String)?
    /// Its connections and listeners, and the current connection.
    let table: ConnectionTable

    /// What `set` statements have set so far.
    @exclusivity(unchecked) var settings = Settings()

    /// `send random`'s bytes; a copy's is seeded from the run's seed and its index.
    var random: SeededGenerator
    var seed: UInt64 { random.seed }
    @exclusivity(unchecked) var runRecord: RunRecord
    /// The expect the log let go, for the next expect to be made in (see `LoggedStep`). It
    /// holds this run, which lets it go as it finishes.
    @exclusivity(unchecked) var spareExpect: ExpectStep?
    /// Its capture and wire checks; a `parallel` copy shares its parent's. Each init sets it: a
    /// default value would make every copy a session of its own first, which reads the whole
    /// environment (bench/HISTORY.md 2, "A copy's set-up").
    let wire: WireSession

    /// Which copy of a `parallel` block this is, and where it records its expect latencies;
    /// nil for the scenario itself.
    let copy: (index: Int, latencies: LatencyRecorder)?
    var copyIndex: Int? { copy?.index }
    var latencies: LatencyRecorder? { copy?.latencies }

    /// Where this run stands in a `split sweep` (copies of a `parallel` block take the parent's).
    var sweep: SweepRun
    /// The executor of each family of steps, made by its first use (most copies use none).
    private var made: FamilyExecutors?
    var madeSubjects: SubjectSteps? { made?.subjects }
    var madeProxies: ProxySteps? { made?.proxies }

    init(scenario: Scenario, options: RunOptions, loop: EventLoop, sweep: SweepRun.Mode = .discover) {
        self.run = RunContext(scenario: scenario, options: options, loop: loop)
        self.sweep = SweepRun(sweep)
        self.variables = VariableValues(options.variables)
        self.random = SeededGenerator(seed: options.seed ?? UInt64.random(in: 1...UInt64.max))
        self.copy = nil
        self.runRecord = RunRecord(keepsLog: options.keepsLogs)
        self.wire = WireSession()
        self.table = ConnectionTable()
    }

    /// A copy of a `parallel` block: the parent's run, settings, variables and capture, with
    /// connections, subjects and `{copy}` of its own.
    init(parent: ScenarioExecution, copy: Int, latencies: LatencyRecorder) {
        run = parent.run
        sweep = parent.sweep
        random = SeededGenerator(seed: parent.seed &+ UInt64(copy + 1))
        variables = parent.variables
        repeatTurn = parent.repeatTurn
        settings = parent.settings
        wire = WireSession(sharingCaptureOf: parent.wire)
        runRecord = RunRecord(keepsLog: false)
        table = ConnectionTable(continuingFrom: parent.table)
        self.copy = (copy, latencies)
    }

    var elapsed: Duration { clock.now - run.start }

    var remaining: Duration { .nanoseconds(nanosecondsLeft(at: clock.now)) }

    /// What is left of the scenario's deadline at `now`, in nanoseconds: worked out in integers,
    /// for the steps of a round trip ask it four times (see `Settings.deadlineNanoseconds`).
    func nanosecondsLeft(at now: RunClock.Instant) -> Int64 {
        settings.deadlineNanoseconds - (now.nanoseconds - run.start.nanoseconds)
    }

    /// Logs `message`; a `parallel` copy, which keeps no log, does not build it.
    func record(_ statement: Statement?, _ message: @autoclosure () -> String) {
        guard runRecord.keepsLog else { return }
        runRecord.log(message(), at: elapsed, statement)
    }

    /// Logs the message `message` builds, only if the log keeps it: for the steps a soak repeats
    /// a million times. `message` captures the values it shows, or one object that keeps them
    /// (a write's, which holds the run until the runner takes the log), never state that
    /// changes later. `now`, when the step has read the clock already, saves reading it again.
    func record(_ statement: Statement?, at now: RunClock.Instant? = nil, deferred message: @escaping () -> String) {
        record(statement, at: now, .closure(message))
    }

    /// Logs a step whose object makes its entry's message (see `LoggedStep`); the object the
    /// log lets go is told so.
    func record(_ statement: Statement?, at now: RunClock.Instant? = nil, step: any LoggedStep) {
        record(statement, at: now, .step(step))
    }

    private func record(_ statement: Statement?, at now: RunClock.Instant?, _ message: StepLog.Message) {
        guard runRecord.keepsLog else { return }
        runRecord.log(atNanoseconds: (now ?? clock.now).nanoseconds - run.start.nanoseconds, statement, message)?.letGo()
    }

    func lookup(_ name: String) -> String? {
        if name == VariableChecker.repeatIndex, let repeatTurn {
            if let made = repeatTurnText, made.turn == repeatTurn { return made.text }
            let text = String(repeatTurn)
            repeatTurnText = (repeatTurn, text)
            return text
        }
        if name == VariableChecker.parallelCopy, let copyIndex { return String(copyIndex) }
        // The loader refused given values that name each other in a cycle.
        if let given = variables.given[name] { return given.renderString(lookup) }
        return variables[name]
    }

    // MARK: - Running

    func run() async throws {
        do {
            try wire.start(for: scenario, options.capture, &runRecord, at: elapsed)
            let done = loop.makePromise(of: Void.self)
            StepMachine(self, running: scenario.statements, then: .scenario(done)).advance()
            try await done.futureResult.get()
            try await judgeUnreadAtEnd()
            if let daemonized = madeSubjects?.subjectsInTheBackground().first { throw daemonized }
        } catch {
            runRecord.failedAt = elapsed
            runRecord.notes += (madeSubjects?.subjectsInTheBackground() ?? []).map { "line \($0.location.line): \($0.message)" }
            await finish(passed: false)
            throw error
        }
        await finish(passed: true)
    }

    /// Closes what the run left open, stops its subjects and its capture.
    private func finish(passed: Bool) async {
        spareExpect = nil
        if copy == nil { run.heldPorts.releaseAll() }
        if let rules = made?.rules { table.all.forEach(rules.end) }
        await closeAll()
        runRecord.notes += madeProxies?.problems ?? []
        await madeSubjects?.stopSubjects(reportOutput: !passed)
        runRecord.stoppingSubjects += madeSubjects?.stoppingTime ?? .zero
        if copy == nil { run.networks.removeAll { record(nil, $0) } }
        wire.verifyAtEnd(&runRecord)
        wire.finish(passed: passed, options.capture, keepingEventsOf: options.recordWire ? table.all : nil,
                    proxyLegs: madeProxies?.legs ?? [], dropped: run.networks.dropped, &runRecord)
    }

    func closeAll() async {
        await table.closeAll(on: loop)
        await madeProxies?.closeAll()
    }

    @inline(never)
    func deadlinePassed(before statement: Statement) -> StepFailure {
        StepFailure(statement, CommonFailure.deadlinePassed(deadline: settings.deadline, when: "before this step"))
    }

    /// Tells the run's watchers that the scenario's own `statement` begins (not a copy's).
    func announce(_ statement: Statement) {
        guard copyIndex == nil else { return }
        options.onStep?(scenario.path, statement.text)
        if options.recordWire { runRecord.begin(statement, at: elapsed) }
    }

    func repeatTimes(_ count: Argument<Int>) throws -> Int {
        try resolve(count, "a repeat count", Quantity.integer)
    }

    /// A length setting with its variables resolved and checked as the parser checks literals.
    private func header(_ setting: LengthSetting, _ statement: Statement) throws -> LengthHeader {
        let after = try setting.after.map { try resolve($0, "a number of head bytes", Quantity.integer) } ?? 0
        guard after <= LengthSetting.longestHead else { throw StepFailure(statement, FramingFailure.headTooLong(after)) }
        let adjust = try setting.adjust.map { try resolve($0, "a signed whole number", Quantity.signedInteger) } ?? 0
        guard let width = setting.width else { return LengthHeader(field: .varint, after: after) }
        let bytes = try resolve(width, "a length field width (1, 2, 3, 4 or 8 bytes)", Quantity.integer)
        guard LengthHeader.widths.contains(bytes) else { throw StepFailure(statement, FramingFailure.badLengthWidth(bytes)) }
        return LengthHeader(width: bytes, bigEndian: setting.bigEndian, after: after, adjust: adjust)
    }

    func apply(_ setting: Setting, _ statement: Statement) throws {
        switch setting {
        case .timeout(let value): settings.timeout = try resolve(value, "a duration", Quantity.duration)
        case .deadline(let value): settings.deadline = try resolve(value, "a duration", Quantity.duration)
        case .terminator(let value): settings.terminator = value
        case .maxLine(let value): settings.maxLine = try resolve(value, "a size", Quantity.size)
        case .capture: break // read before the run starts: see WireSession.isNeeded
        case .unread(let policy): settings.unread = policy
        case .cutOff(let policy): settings.cutOff = policy
        case .framing(let framing):
            switch framing {
            case .lines: settings.messageFraming = .lines
            case .length(let setting): settings.messageFraming = .length(try header(setting, statement))
            }
            // The wire checks of messages cut each open connection's streams from here.
            table.all.forEach { $0.markFramingStart() }
        case .webSocketAutoPong(let on): settings.webSocketAutoPong = on
        case .http2Handshake(let on): settings.http2Handshake = on
        case .http2AutoAck(let on): settings.http2AutoAck = on
        case .maxMessage(let value):
            let size = try resolve(value, "a size", Quantity.size)
            guard (1...(1 << 30)).contains(size) else { throw StepFailure(statement, FramingFailure.badMaxMessage(size)) }
            settings.maxMessage = size
        }
    }

    func define(_ name: Name, _ value: VariableValue, _ statement: Statement) throws {
        if options.variables[name.text] != nil { return } // --var wins over the default
        switch value {
        case .text(let template):
            variables[name.text] = template.renderString(lookup)
        case .freePort:
            guard let port = run.heldPorts.pick() else {
                throw StepFailure(statement, ConnectionFailure.noFreePort)
            }
            variables[name.text] = String(port)
            record(statement, "\(name.text) = \(port) (free port)")
        }
    }

    /// A step of the `non-strict` block `block` was not met: the scenario goes on, and its
    /// result says what was allowed rather than ideal.
    func noteNonStrict(_ block: Statement, _ failure: StepFailure) {
        let note = "non-strict: " + Self.summary(of: failure)
        runRecord.notes.append(note)
        record(block, note)
    }

    /// Why a `skip … unless { … }` block skips the scenario: its reason, and the step not met.
    func skipping(_ block: Statement, reason: Template, _ failure: StepFailure) -> ScenarioSkipped {
        let why = reason.renderString(lookup) + " (" + Self.summary(of: failure) + ")"
        record(block, "skipped: " + why)
        return ScenarioSkipped(reason: why)
    }

    /// "line 4 expect frame data 1: expected …": a failed step on one line.
    private static func summary(of failure: StepFailure) -> String {
        let message = failure.message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? failure.message
        return "line \(failure.location.line) \(failure.step): \(message)"
    }

    // MARK: - Helpers shared by the executors

    /// The connection a step acts on: its prefix, else the last `use`d or opened one.
    func target(_ statement: Statement, allowClosed: Bool = false) throws -> ProbeConnection {
        try table.target(statement, allowClosed: allowClosed)
    }

    /// The wait for a step starting at `now`, and the same in nanoseconds: its own limit, cut
    /// short by the scenario's deadline. The usual wait, the step timeout, is weighed in
    /// integers alone.
    func limit(_ wait: Duration, at now: RunClock.Instant) -> (wait: Duration, byDeadline: Bool, nanoseconds: Int64) {
        let left = max(0, nanosecondsLeft(at: now))
        let asked = wait == settings.timeout ? settings.timeoutNanoseconds : wait.saturatedNanoseconds
        return left < asked ? (.nanoseconds(left), true, left) : (wait, false, asked)
    }

    /// Starts `sleep`; `done` is told its end (as `WaitEnd` rounds it). A sleeping copy holds
    /// its timer: the statement goes into it only when the deadline cuts the sleep short.
    func startSleep(_ duration: Argument<Duration>, _ statement: Statement, done: @escaping StepDone) throws {
        let (wait, byDeadline) = limit(try resolve(duration, "a duration", Quantity.duration))
        try loop.scheduleCallback(at: WaitEnd.deadline(after: wait), handler: SleepCallback(done: done, failure: byDeadline ? sleepCutShort(statement) : nil))
    }

    func sleep(for duration: Duration, _ statement: Statement) async throws {
        let (wait, byDeadline) = limit(duration)
        try await pause(for: wait)
        if byDeadline { throw sleepCutShort(statement) }
    }

    /// A sleep the scenario's deadline cut short.
    func sleepCutShort(_ statement: Statement) -> StepFailure {
        StepFailure(statement, CommonFailure.deadlinePassed(deadline: settings.deadline, when: "during the sleep"))
    }

    /// Sleeps until `instant`, if it is still ahead.
    func sleep(until instant: RunClock.Instant, _ statement: Statement) async throws {
        let now = clock.now
        if instant > now { try await sleep(for: instant - now, statement) }
    }

    func format(_ duration: Duration) -> String { DurationFormat.short(duration) }

    /// Runs `body` as a task on the run's loop, for what a step must await outside a task of
    /// its own: a `parallel` copy's step with no event-loop form, a failure's report.
    func onTask(_ body: @escaping @Sendable () async throws -> Void) -> EventLoopFuture<Void> {
        let loop = loop
        let promise = loop.makePromise(of: Void.self)
        Task(executorPreference: EventLoopTaskExecutor(loop)) {
            do { promise.succeed(try await body()) } catch { promise.fail(error) }
        }
        return promise.futureResult
    }
}

extension ScenarioExecution: StepContext {
    var regexes: RegexCache { run.regexCache }

    func note(_ text: String) {
        if !runRecord.notes.contains(text) { runRecord.notes.append(text) }
    }
}

/// The door of each family: its executor, made on first use with what it needs.
extension ScenarioExecution {
    /// The executors made so far, made themselves at the first door used.
    private var families: FamilyExecutors {
        if let made { return made }
        let families = FamilyExecutors()
        made = families
        return families
    }

    /// Makes `stored` with `make` when it is not made yet.
    private func door<Family>(_ stored: inout Family?, _ make: () -> Family) -> Family {
        if let stored { return stored }
        let made = make()
        stored = made
        return made
    }

    var subjects: SubjectSteps {
        door(&families.subjects) { SubjectSteps(context: self, connections: table, wire: wire, networks: run.networks) }
    }

    var proxies: ProxySteps {
        door(&families.proxies) {
            let capture = wire.capture
            return ProxySteps(context: self, connections: table, watchPort: wire.watch(port:_:)) {
                WireSession.claim(probePort: $0, peerPort: $1, on: capture)
            }
        }
    }

    var tlsSteps: TLSSteps {
        door(&families.tls) {
            TLSSteps(context: self, connections: table, keyLog: wire.keyLog,
                     certificateFolder: (options.capture.directory, options.capture.directoryIsDefault))
        }
    }

    var webSocketSteps: WebSocketSteps {
        door(&families.webSocket) { WebSocketSteps(context: self) }
    }

    var http2Steps: HTTP2Steps {
        door(&families.http2) { HTTP2Steps(context: self) }
    }

    var rules: RuleSteps {
        door(&families.rules) { RuleSteps(context: self, connections: table) { [unowned self] in try self.payloadBytes($0, $1) } }
    }

    var wireChecks: WireSteps {
        door(&families.wireChecks) { WireSteps(context: self, connections: table, wire: wire) { [unowned self] in self.madeProxies?.proxy(named: $0) } }
    }

    var networks: NetworkSteps {
        door(&families.networks) { NetworkSteps(context: self, table: run.networks, isCopy: copy != nil) }
    }
}
