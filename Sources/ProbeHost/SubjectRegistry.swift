import Dispatch
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every live subject of the process, so a signal handler can stop them all before exiting.
package final class SubjectRegistry: Sendable {
    package static let shared = SubjectRegistry()
    private let subjects = Mutex<[ObjectIdentifier: Subject]>([:])
    private let spawnLock = Mutex(())

    package func add(_ subject: Subject) { subjects.withLock { $0[ObjectIdentifier(subject)] = subject } }

    package func remove(_ subject: Subject) { _ = subjects.withLock { $0.removeValue(forKey: ObjectIdentifier(subject)) } }

    /// Runs `body` (a spawn that adds its subject) while no `spawning` caller runs.
    package func spawning<T: Sendable, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try spawnLock.withLock { _ throws(E) in try body() }
    }

    /// The process ids of the live subjects.
    package func pids() -> Set<pid_t> { subjects.withLock { Set($0.values.map(\.pid)) } }

    /// Stops every live subject's process group: SIGTERM, then SIGKILL after `grace` seconds.
    package func stopAll(grace: TimeInterval = 1) {
        let live = subjects.withLock { Array($0.values) }
        DispatchQueue.concurrentPerform(iterations: live.count) { live[$0].stopNow(grace: grace) }
    }
}
