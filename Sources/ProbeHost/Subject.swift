import CSpawnExtras
import Dispatch
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A program under test, spawned by `spawn` in a process group of its own, with its stdout
/// and stderr kept (bounded) and its exit reaped, so no orphan or zombie is left behind.
package final class Subject: Sendable {
    package let name: String
    package let command: String
    package let pid: pid_t
    package let stdout = OutputTail()
    package let stderr = OutputTail()
    /// The raw wait status once it exited, and our end of its standard input when spawned with
    /// one (-1 when it has none or it was closed).
    private let state: Mutex<(status: Int32?, input: Int32)>
    /// True when it was spawned `with stdin`.
    package let spawnedWithStdin: Bool
    private let exited = DispatchSemaphore(value: 0)

    /// How long `stop` waits after SIGTERM before SIGKILL.
    package static let gracePeriod: Duration = .seconds(2)

    /// Why `writeInput` could not write.
    package enum InputError: Error, CustomStringConvertible {
        case notOpen
        case failed(Int32)

        package var description: String {
            switch self {
            case .notOpen: return "its standard input is closed"
            case .failed(let code): return "its standard input took no more: \(String(cString: strerror(code)))"
            }
        }
    }

    package enum SpawnError: Error, CustomStringConvertible {
        case notFound(String, searched: [String])
        case failed(String, errno: Int32)

        package var description: String {
            switch self {
            case .notFound(let program, let searched):
                return "cannot find '\(program)' (looked next to tcpprobe and on PATH: \(searched.joined(separator: ":")))"
            case .failed(let program, let code):
                return "cannot start '\(program)': \(String(cString: strerror(code)))"
            }
        }
    }

    /// Set in every subject's environment, which its descendants inherit: it finds what a
    /// subject left running outside its process group.
    package static let tokenVariable = "TCPPROBE_SUBJECT"
    private static let spawned = Atomic(0)
    /// This subject's value of `tokenVariable`, unique on the machine.
    package let token: String

    private init(name: String, command: String, pid: pid_t, input: Int32, token: String) {
        self.token = token
        self.name = name
        self.command = command
        self.pid = pid
        self.state = Mutex((status: nil, input: input))
        self.spawnedWithStdin = input >= 0
    }

    /// Starts `argv` in `directory` with the environment plus `environment`, in a new process
    /// group, bound to die with tcpprobe (`spawn_bound_to_process`); `command` is how reports show it. Its standard input is /dev/null, or with
    /// `withStdin` a socket that `writeInput` writes (a socket, not a pipe, so a write to a
    /// subject that is gone fails with EPIPE, never SIGPIPE).
    package static func spawn(name: String, argv: [String], command: String, in directory: String, environment: [String: String],
                             withStdin: Bool = false) throws -> Subject {
        let executable = try locate(argv[0], from: directory)
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPair: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw SpawnError.failed(argv[0], errno: errno) }
        if withStdin, socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &inPair) != 0 {
            let code = errno
            for fd in outPipe + errPipe { close(fd) }
            throw SpawnError.failed(argv[0], errno: code)
        }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let token = "\(getpid())-\(spawned.add(1, ordering: .relaxed).newValue)"
        merged[tokenVariable] = token
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        // Spawned and registered in one step: until it is registered, the new child would
        // look like a stray to `StrayProcesses`. It dies with tcpprobe, even by SIGKILL.
        return try SubjectRegistry.shared.spawning {
            let pid = spawn_bound_to_process(executable, cArguments, cEnvironment, directory, withStdin ? inPair[1] : -1, outPipe[1], errPipe[1])
            close(outPipe[1])
            close(errPipe[1])
            if withStdin {
                close(inPair[1])
                shutdown(inPair[0], Int32(SHUT_RD))
            }
            guard pid > 0 else {
                for fd in [outPipe[0], errPipe[0], inPair[0]] where fd >= 0 { close(fd) }
                throw SpawnError.failed(argv[0], errno: -pid)
            }
            let subject = Subject(name: name, command: command, pid: pid, input: inPair[0], token: token)
            subject.startReading(outPipe[0], into: subject.stdout)
            subject.startReading(errPipe[0], into: subject.stderr)
            subject.startReaping()
            SubjectRegistry.shared.add(subject)
            return subject
        }
    }

    /// `program` when it has a slash (from `directory` when relative, where it will run);
    /// else next to the tcpprobe binary, then on PATH.
    package static func locate(_ program: String, from directory: String) throws -> String {
        if program.hasPrefix("/") { return program }
        if program.contains("/") { return joinPath(directory, program) }
        var own = OwnBinary.folder.path(percentEncoded: false)
        if own.count > 1, own.hasSuffix("/") { own.removeLast() }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        let searched = [own] + path
        for directory in searched {
            let candidate = joinPath(directory, program)
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw SpawnError.notFound(program, searched: searched)
    }

    private func startReading(_ fd: Int32, into tail: OutputTail) {
        DetachedThread.run {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = Syscall.retryingInterrupts { read(fd, &buffer, buffer.count) }
                guard count > 0 else { break }
                tail.append(buffer[0..<count])
            }
            close(fd)
            tail.finish()
        }
    }

    private func startReaping() {
        DetachedThread.run { [self] in
            var raw: Int32 = 0
            _ = Syscall.retryingInterrupts { waitpid(pid, &raw, 0) }
            state.withLock { $0.status = raw }
            SubjectRegistry.shared.remove(self)
            exited.signal()
        }
    }

    /// True when it was spawned with a standard input that is still open.
    package var hasInput: Bool { state.withLock { $0.input >= 0 } }

    /// Writes what its standard input takes of `bytes` now, without waiting: the count
    /// written, 0 when its buffer is full (the subject is not reading).
    package func writeInput(_ bytes: ArraySlice<UInt8>) throws -> Int {
        try state.withLock { state throws(InputError) in
            guard state.input >= 0 else { throw InputError.notOpen }
            let written = bytes.withUnsafeBytes { send(state.input, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if written >= 0 { return written }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
            throw InputError.failed(errno)
        }
    }

    /// Ends its standard input: the subject reads EOF.
    package func closeInput() {
        state.withLock { state in
            guard state.input >= 0 else { return }
            close(state.input)
            state.input = -1
        }
    }

    /// The raw wait status once the process has exited.
    package var exitStatus: Int32? { state.withLock { $0.status } }

    package var hasExited: Bool { exitStatus != nil }

    /// `exit code 3` or `killed by signal 9`.
    package var exitDescription: String? {
        guard let raw = exitStatus else { return nil }
        if raw & 0x7F == 0 { return "exit code \((raw >> 8) & 0xFF)" }
        return "killed by signal \(raw & 0x7F)"
    }

    /// The exit code, or nil when it is still running or was killed by a signal.
    package var exitCode: Int? {
        guard let raw = exitStatus, raw & 0x7F == 0 else { return nil }
        return Int((raw >> 8) & 0xFF)
    }

    /// Waits up to `timeout` for the process to exit; true when it did.
    package func waitForExit(timeout: Duration) async -> Bool {
        await Polling.until(within: timeout) { hasExited }
    }

    /// Sends `signal` to the whole process group.
    package func signal(_ signal: Int32) {
        guard !hasExited else { return }
        _ = kill(-pid, signal)
    }

    /// SIGTERM to the group, SIGKILL after the grace period, then waits for the reap. True when
    /// the subject had exited but left processes running in its group (`sh -c 'server &'`),
    /// which are stopped the same way.
    @discardableResult
    package func stop(grace: Duration = Subject.gracePeriod) async -> Bool {
        closeInput()
        guard !hasExited else { return await stopLeftovers(grace: grace) }
        signal(SIGTERM)
        if await waitForExit(timeout: grace) { return false }
        _ = kill(-pid, SIGKILL)
        _ = await waitForExit(timeout: .seconds(5))
        return false
    }

    /// Stops what is left of the group after the subject exited (its id stays the group's while
    /// a member lives, so no other process can have it).
    private func stopLeftovers(grace: Duration) async -> Bool {
        guard kill(-pid, SIGTERM) == 0 else { return false }
        if await Polling.until(within: grace, every: .milliseconds(10), { groupEnded }) { return true }
        _ = kill(-pid, SIGKILL)
        _ = await Polling.until(within: .seconds(1), every: .milliseconds(10), { groupEnded })
        return true
    }

    /// Whether no process is left in the subject's group. Members whose parent died are
    /// init's children, or tcpprobe's strays, reaped here.
    private var groupEnded: Bool {
        StrayProcesses.reapExited()
        return kill(-pid, 0) != 0
    }

    /// The same as `stop`, blocking, for signal handlers and process exit. Once it has killed
    /// the group it returns when the whole group is gone, not the subject alone: a member
    /// killed with it may still be dying as the subject is reaped, and an interrupted run must
    /// not exit before it is.
    package func stopNow(grace: TimeInterval) {
        closeInput()
        guard !hasExited else { return }
        _ = kill(-pid, SIGTERM)
        if exited.wait(timeout: .now() + grace) == .timedOut {
            _ = kill(-pid, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
            _ = Polling.blockingUntil(within: .seconds(1), { groupEnded })
        } else {
            exited.signal()
        }
    }

    /// What a failure report shows of the subject.
    package func report() -> String {
        var lines = ["subject '\(name)' (pid \(pid), \(command)): \(exitDescription ?? "still running")"]
        for (label, tail) in [("stdout", stdout.tail()), ("stderr", stderr.tail())] where tail.total > 0 {
            lines.append("  \(label) (last lines of \(tail.total) bytes):")
            lines += tail.text.split(separator: "\n", omittingEmptySubsequences: false).map { "    | " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
