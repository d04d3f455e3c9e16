import CSpawnExtras
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Processes a subject left running outside its process group, out of reach of `kill` on the
/// group: a server's fork that called setsid (a daemon). `stop(leftBy:)` finds them by the
/// subject's token in their environment when its scenario ends. One that cleared its
/// environment is caught another way: once tcpprobe is their reaper (`adopt`), they become its
/// children when their parent exits. Those listening on the port a subject was to be ready on
/// are stopped with its scenario (`stop(listeningOn:)`); at the end of the run, or on Ctrl-C,
/// `stopAll` stops the rest.
package enum StrayProcesses {
    private static let adopted = Atomic(false)

    /// Makes this process the reaper of its subjects' orphans. Only for a process whose children
    /// are all subjects (the `run` command): strays are the children no subject accounts for.
    package static func adopt() {
        adopted.store(become_child_subreaper() == 0, ordering: .relaxed)
    }

    /// Children of this process that are not live subjects, with their command lines.
    package static func list() -> [(pid: pid_t, command: String)] {
        guard adopted.load(ordering: .relaxed) else { return [] }
        // Not while a subject is being spawned: its pid would be a child no subject accounts for.
        let strays = SubjectRegistry.shared.spawning {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            var children: Set<pid_t> = []
            for task in tasks {
                guard let text = try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8) else { continue }
                children.formUnion(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { pid_t($0) })
            }
            return children.subtracting(SubjectRegistry.shared.pids())
        }
        return strays.sorted().map { ($0, command(of: $0)) }
    }

    /// Reaps the strays that have exited, so a long run keeps no zombies.
    package static func reapExited() {
        for stray in list() {
            var status: Int32 = 0
            _ = waitpid(stray.pid, &status, WNOHANG)
        }
    }

    /// Stops every stray and its process group: SIGTERM, SIGKILL after `grace` seconds, then
    /// reaps them. Returns what was stopped, one line each ("pid 41 (nginx: master process)").
    package static func stopAll(grace: TimeInterval) -> [String] {
        reapExited()
        let strays = list()
        terminate(strays.map(\.pid), grace: grace)
        return strays.map { "pid \($0.pid) (\($0.command))" }
    }

    /// Stops the processes outside `subjects`' process groups whose environment holds one of
    /// their tokens: what a subject left running in the background, found even when tcpprobe
    /// is not their reaper. Returns what was stopped, by subject name.
    package static func stop(leftBy subjects: [Subject], grace: TimeInterval) -> [(subject: String, process: String)] {
        let tokens = Dictionary(uniqueKeysWithValues: subjects.map { ($0.token, $0.name) })
        let groups = Set(subjects.map(\.pid))
        let live = SubjectRegistry.shared.pids()
        let found = processesWithTokens().compactMap { pid, token -> (pid: pid_t, subject: String)? in
            guard !live.contains(pid), !groups.contains(getpgid(pid)), let subject = tokens[token] else { return nil }
            return (pid, subject)
        }
        let stopped = found.map { ($0.subject, "pid \($0.pid) (\(command(of: $0.pid)))") }
        terminate(found.map(\.pid), grace: grace)
        return stopped
    }

    /// Stops what the subjects of a tcpprobe that is gone (killed with SIGKILL, say) left
    /// running: the processes whose token names a run whose process no longer exists (the
    /// subjects themselves died with it). Returns what was stopped, one line each.
    package static func stopLeftByEndedRuns(grace: TimeInterval) -> [String] {
        // A token is "RUNPID-N": the pid of the tcpprobe that spawned the subject, and a count.
        let found = processesWithTokens().compactMap { pid, token -> (pid: pid_t, run: pid_t)? in
            guard let run = token.split(separator: "-").first.flatMap({ pid_t($0) }), kill(run, 0) != 0, errno == ESRCH else { return nil }
            return (pid, run)
        }
        let stopped = found.map { "pid \($0.pid) (\(command(of: $0.pid))), left by the run of pid \($0.run)" }
        terminate(found.map(\.pid), grace: grace)
        return stopped
    }

    /// Every other process with a subject's token in its environment, and the token.
    private static func processesWithTokens() -> [(pid: pid_t, token: String)] {
        let prefix = Array((Subject.tokenVariable + "=").utf8)
        var found: [(pid: pid_t, token: String)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), pid != getpid(),
                  let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
            for variable in environment.split(separator: 0) where variable.starts(with: prefix) {
                found.append((pid, String(decoding: variable.dropFirst(prefix.count), as: UTF8.self)))
            }
        }
        return found
    }

    /// Stops the strays (children no subject accounts for) that listen on one of `ports`, or
    /// whose process group does: a daemon that cleared its environment, found by the port its
    /// subject was to be ready on, so it is stopped with its scenario and not at the end of the
    /// run. Returns what was stopped, by the subject named for the port.
    package static func stop(listeningOn ports: [Int: String], grace: TimeInterval) -> [(subject: String, process: String)] {
        let strays = Set(list().map(\.pid))
        guard !strays.isEmpty, !ports.isEmpty else { return [] }
        var portOfSocket: [UInt32: Int] = [:]
        _ = SocketTable.forEach(states: 1 << UInt32(SocketTable.Entry.listenState)) { socket in
            if ports[socket.localPort] != nil, socket.inode != 0 { portOfSocket[socket.inode] = socket.localPort }
        }
        var found: [pid_t: Int] = [:]
        for (inode, owners) in PortHolders.owners(of: Set(portOfSocket.keys)) {
            for owner in owners {
                if let stray = [owner, getpgid(owner)].first(where: strays.contains) { found[stray] = portOfSocket[inode] }
            }
        }
        let stopped = found.sorted(by: { $0.key < $1.key }).map { pid, port in
            (ports[port] ?? "?", "pid \(pid) (\(command(of: pid))) on port \(port)")
        }
        terminate(Array(found.keys), grace: grace)
        return stopped
    }

    /// SIGTERM to each process (and the group it leads), SIGKILL to those left after `grace`
    /// seconds; reaps the ones that are this process's children.
    private static func terminate(_ pids: [pid_t], grace: TimeInterval) {
        guard !pids.isEmpty else { return }
        for pid in pids { signal(pid, SIGTERM) }
        func gone(_ pid: pid_t) -> Bool {
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == pid || kill(pid, 0) != 0
        }
        var left = pids
        let allGone = { () -> Bool in
            left = left.filter { !gone($0) }
            return left.isEmpty
        }
        if Polling.blockingUntil(within: .milliseconds(Int(grace * 1000)), every: .milliseconds(10), allGone) { return }
        for pid in left { signal(pid, SIGKILL) }
        _ = Polling.blockingUntil(within: .seconds(1), every: .milliseconds(10), allGone)
    }

    /// `signal` to the process's group when it leads one (a daemon after setsid leads its
    /// session, its workers in its group), else to the process.
    private static func signal(_ pid: pid_t, _ number: Int32) {
        if getpgid(pid) == pid { _ = kill(-pid, number) } else { _ = kill(pid, number) }
    }

    /// A stray's command line, up to 100 characters.
    private static func command(of pid: pid_t) -> String {
        PortHolders.commandLine(of: pid, atMost: 101)
    }
}
