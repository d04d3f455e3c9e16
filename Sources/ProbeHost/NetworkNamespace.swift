import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A named network namespace of this process (`ip netns`), `tcpprobe-PID-N-NAME`: made with
/// iproute2's `ip`, removed natively (unmount and unlink, as `ip netns del` does) so that a
/// signal handler can remove what a run leaves. The pid in the name lets the next run remove
/// what a killed one left behind.
package struct NetworkNamespace: Sendable, Hashable {
    /// Where iproute2 keeps the namespaces' names.
    package static let directory = "/run/netns"
    static let prefix = "tcpprobe-"

    /// The namespace's name, for `ip -n` and `ip netns exec`.
    package let name: String
    package var path: String { "\(Self.directory)/\(name)" }

    /// What went wrong making a namespace or its link: the command and what it said.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private static let live = Mutex<Set<String>>([])

    /// Makes the namespace for network `network`, the `index`th of this process.
    package static func make(for network: String, index: Int) async throws -> NetworkNamespace {
        let namespace = NetworkNamespace(name: "\(prefix)\(getpid())-\(index)-\(network)")
        // Known before it exists: a Ctrl-C while `ip` makes it still removes it.
        live.withLock { _ = $0.insert(namespace.name) }
        do {
            try await run(["ip", "netns", "add", namespace.name])
        } catch {
            namespace.remove()
            throw error
        }
        return namespace
    }

    /// Runs `ip ARGS…` inside the namespace.
    package func run(_ arguments: [String]) async throws {
        try await Self.run(["ip", "-n", name] + arguments)
    }

    /// Runs a command (iproute2's `ip`) to its end; throws what it printed when it fails.
    package static func run(_ argv: [String]) async throws {
        let subject: Subject
        do {
            subject = try Subject.spawn(name: argv[0], argv: argv, command: argv.joined(separator: " "), in: "/", environment: [:])
        } catch {
            throw Failure(description: "cannot run `\(argv.joined(separator: " "))`: \(error)")
        }
        guard await subject.waitForExit(timeout: .seconds(10)) else {
            await subject.stop()
            throw Failure(description: "`\(argv.joined(separator: " "))` did not finish within 10s")
        }
        await subject.stderr.waitForEnd(upTo: .milliseconds(200))
        guard subject.exitCode == 0 else {
            let said = subject.stderr.tail(lines: 3).text.split(separator: "\n").joined(separator: "; ")
            throw Failure(description: "`\(argv.joined(separator: " "))` failed (\(subject.exitDescription ?? "?"))" + (said.isEmpty ? "" : ": \(said)"))
        }
    }

    /// True once process `pid` has entered the namespace (`ip netns exec` has, before it executes
    /// the subject's program): until then its /proc/PID/net shows the host's sockets.
    package func holds(pid: Int32) -> Bool {
        var process = stat(), namespace = stat()
        guard stat("/proc/\(pid)/ns/net", &process) == 0, stat(path, &namespace) == 0 else { return false }
        return process.st_ino == namespace.st_ino && process.st_dev == namespace.st_dev
    }

    /// Removes the namespace: whatever still runs in it keeps it until it ends.
    package func remove() {
        Self.remove(name)
        Self.live.withLock { _ = $0.remove(name) }
    }

    private static func remove(_ name: String) {
        let path = "\(directory)/\(name)"
        _ = umount2(path, Int32(MNT_DETACH))
        _ = unlink(path)
    }

    /// Removes every namespace this process still holds (on Ctrl-C or SIGTERM).
    package static func removeAllLive() {
        for name in live.withLock({ $0 }) { remove(name) }
        live.withLock { $0.removeAll() }
    }

    /// Removes the namespaces of runs whose process is gone (killed before they could), and
    /// returns their names.
    @discardableResult
    package static func removeStale() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { name in
            guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count).prefix { $0.isNumber }) else { return false }
            guard kill(pid, 0) != 0, errno == ESRCH else { return false }
            remove(name)
            return true
        }
    }
}
