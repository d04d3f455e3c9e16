import CSpawnExtras
import FoundationEssentials
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// Processes a subject left running outside its process group, out of reach of `kill` on the
/// group: a server's fork that called setsid and outlived its parent (a daemon). Once tcpprobe
/// is their reaper (`adopt`), they become its children when their parent exits; at the end of
/// the run, or on Ctrl-C, `stopAll` stops them.
public enum StrayProcesses {
    private static let adopted = NIOLockedValueBox(false)

    /// Makes this process the reaper of its subjects' orphans. Only for a process whose children
    /// are all subjects (the `run` command): strays are the children no subject accounts for.
    public static func adopt() {
        adopted.withLockedValue { $0 = become_child_subreaper() == 0 }
    }

    /// Children of this process that are not live subjects, with their command lines.
    static func list() -> [(pid: pid_t, command: String)] {
        guard adopted.withLockedValue({ $0 }) else { return [] }
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
    static func reapExited() {
        for stray in list() {
            var status: Int32 = 0
            _ = waitpid(stray.pid, &status, WNOHANG)
        }
    }

    /// Stops every stray and its process group: SIGTERM, SIGKILL after `grace` seconds, then
    /// reaps them. Returns what was stopped, one line each ("pid 41 (nginx: master process)").
    public static func stopAll(grace: TimeInterval) -> [String] {
        reapExited()
        let strays = list()
        guard !strays.isEmpty else { return [] }
        for stray in strays { signal(stray.pid, SIGTERM) }
        let deadline = ContinuousClock.now + .milliseconds(Int(grace * 1000))
        var left = strays.map(\.pid)
        while !left.isEmpty {
            left = left.filter { pid in
                var status: Int32 = 0
                return waitpid(pid, &status, WNOHANG) == 0
            }
            if left.isEmpty { break }
            if ContinuousClock.now > deadline {
                for pid in left { signal(pid, SIGKILL) }
                for pid in left {
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                }
                break
            }
            usleep(10_000)
        }
        return strays.map { "pid \($0.pid) (\($0.command))" }
    }

    /// `signal` to the process's group when it leads one (a daemon after setsid leads its
    /// session, its workers in its group), else to the process.
    private static func signal(_ pid: pid_t, _ number: Int32) {
        if getpgid(pid) == pid { _ = kill(-pid, number) } else { _ = kill(pid, number) }
    }

    private static func command(of pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return "?" }
        var text = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        while text.hasSuffix(" ") { text.removeLast() }
        return text.count > 100 ? String(text.prefix(100)) + "…" : text
    }
}
