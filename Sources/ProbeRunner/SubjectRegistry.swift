import Dispatch
import FoundationEssentials
import NIOConcurrencyHelpers

/// Every live subject of the process, so a signal handler can stop them all before exiting.
public final class SubjectRegistry: @unchecked Sendable {
    public static let shared = SubjectRegistry()
    private let lock = NIOLock()
    private var subjects: [ObjectIdentifier: Subject] = [:]

    func add(_ subject: Subject) { lock.withLock { subjects[ObjectIdentifier(subject)] = subject } }

    func remove(_ subject: Subject) { _ = lock.withLock { subjects.removeValue(forKey: ObjectIdentifier(subject)) } }

    /// Stops every live subject's process group: SIGTERM, then SIGKILL after `grace` seconds.
    public func stopAll(grace: TimeInterval = 1) {
        let live = lock.withLock { Array(subjects.values) }
        DispatchQueue.concurrentPerform(iterations: live.count) { live[$0].stopNow(grace: grace) }
    }
}
