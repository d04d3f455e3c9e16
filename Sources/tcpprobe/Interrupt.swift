import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Waiting for Ctrl-C or SIGTERM, for the commands that run until stopped (`proxy`, `record`).
enum Interrupt {
    /// Returns on Ctrl-C or SIGTERM.
    static func wait() async {
        let queue = DispatchQueue(label: "tcpprobe.signals")
        let waiter = Waiter()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiter.continuation.withLock { $0 = continuation }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    waiter.continuation.withLock { waiting in
                        waiting?.resume()
                        waiting = nil
                    }
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// The continuation the first signal resumes, set by the waiting task and taken on the
    /// signals' queue.
    private final class Waiter: Sendable {
        let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
    }

    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
}
