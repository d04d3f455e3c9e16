import Dispatch
import FoundationEssentials
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// Every live subject of the process, so a signal handler can stop them all before exiting.
public final class SubjectRegistry: @unchecked Sendable {
    public static let shared = SubjectRegistry()
    private let lock = NIOLock()
    private let spawnLock = NIOLock()
    private var subjects: [ObjectIdentifier: Subject] = [:]

    func add(_ subject: Subject) { lock.withLock { subjects[ObjectIdentifier(subject)] = subject } }

    func remove(_ subject: Subject) { _ = lock.withLock { subjects.removeValue(forKey: ObjectIdentifier(subject)) } }

    /// Runs `body` (a spawn that adds its subject) while no `spawning` caller runs.
    func spawning<T>(_ body: () throws -> T) rethrows -> T { try spawnLock.withLock(body) }

    /// The process ids of the live subjects.
    func pids() -> Set<pid_t> { lock.withLock { Set(subjects.values.map(\.pid)) } }

    /// Stops every live subject's process group: SIGTERM, then SIGKILL after `grace` seconds.
    public func stopAll(grace: TimeInterval = 1) {
        let live = lock.withLock { Array(subjects.values) }
        DispatchQueue.concurrentPerform(iterations: live.count) { live[$0].stopNow(grace: grace) }
    }
}
