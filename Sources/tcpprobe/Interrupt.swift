import Dispatch
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
            queue.sync { waiter.continuation = continuation }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    waiter.continuation?.resume()
                    waiter.continuation = nil
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// The continuation the first signal resumes; touched on the signals' serial queue only.
    /// Sendable: touched on the signals' serial queue only.
    private final class Waiter: @unchecked Sendable {
        var continuation: CheckedContinuation<Void, Never>?
    }

    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
}
