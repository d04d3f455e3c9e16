import Dispatch
import ProbeHost
import Synchronization

/// Threads that run regex searches away from the event loops. Swift's regexes backtrack, so one
/// search can take minutes (`/([^ ]+) (\d+)\r\n/` over 30,000 bytes without a space) and
/// cannot be stopped; on a thread of its own it holds no loop, so timeouts still fire and other
/// connections go on. A search nobody waits for any longer runs to its end there, its result
/// dropped. A thread starts when every thread is busy, up to `limit`; past that, work waits.
final class SearchThreads: Sendable {
    static let shared = SearchThreads(limit: 16)

    private let limit: Int
    private struct State {
        var queue: [@Sendable () -> Void] = []
        var threads = 0
        /// Threads waiting for work.
        var idle = 0
    }
    private let state = Mutex(State())
    /// Counts the work queued: a thread waits on it for its next.
    private let queued = DispatchSemaphore(value: 0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Runs `work` on one of the threads, soon.
    func run(_ work: @escaping @Sendable () -> Void) {
        let start = state.withLock { state in
            state.queue.append(work)
            let start = state.queue.count > state.idle && state.threads < limit
            if start { state.threads += 1 }
            return start
        }
        queued.signal()
        if start { DetachedThread.run { [self] in serve() } }
    }

    /// `work`'s result, computed on one of the threads, or nil when `limit` passes first: the
    /// work then runs on to its end, its result dropped.
    func result<Value: Sendable>(of work: @escaping @Sendable () -> Value, within limit: Duration) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let waiting = Waiting(continuation)
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                waiting.resume(returning: nil)
            }
            run {
                if waiting.resume(returning: work()) { timer.cancel() }
            }
        }
    }

    /// A caller waiting for a result, resumed once: by the work or by its time limit,
    /// whichever comes first.
    private final class Waiting<Value: Sendable>: Sendable {
        private let continuation: Mutex<CheckedContinuation<Value?, Never>?>

        init(_ continuation: CheckedContinuation<Value?, Never>) {
            self.continuation = Mutex(continuation)
        }

        /// Resumes the caller with `value`, unless it was resumed already; says whether it did.
        @discardableResult
        func resume(returning value: Value?) -> Bool {
            guard let continuation = continuation.withLock({ $0.take() }) else { return false }
            continuation.resume(returning: value)
            return true
        }
    }

    private func serve() {
        var returning = false
        while true {
            queued.wait()
            let work = state.withLock { state in
                if returning { state.idle -= 1 }
                return state.queue.removeFirst()
            }
            work()
            state.withLock { $0.idle += 1 }
            returning = true
        }
    }
}
