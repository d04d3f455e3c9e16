import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A live line on a terminal's stderr: scenarios done/total, the current step, elapsed time.
/// Silent when stderr is not a terminal.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let total: Int
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private let state = Mutex((done: 0, step: ""))

    init(total: Int) {
        self.total = total
        enabled = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        started = clock.now
    }

    func step(_ path: String, _ step: String) {
        guard enabled else { return }
        state.withLock { $0.step = "\(URL(filePath: path).lastPathComponent): \(step)" }
        draw()
    }

    func finished() {
        guard enabled else { return }
        state.withLock { $0.done += 1 }
        draw()
    }

    /// Clears the line before other output is printed.
    func clear() {
        guard enabled else { return }
        Terminal.writeError("\r\u{1B}[2K")
    }

    private func draw() {
        let (done, step) = state.withLock { ($0.done, $0.step) }
        let seconds = Double((clock.now - started) / .milliseconds(100)) / 10
        let text = "[\(done)/\(total)] \(seconds)s \(step)"
        Terminal.writeError("\r\u{1B}[2K\(String(text.prefix(120)))")
    }
}
