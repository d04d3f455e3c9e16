import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A live line on a terminal's stderr: scenarios done/total, the current step, elapsed time.
/// Silent when stderr is not a terminal.
///
/// A step only notes itself; a ticker draws the line `redraws` times a second. Drawing at every
/// step wrote to the terminal twice a round trip and made a run at a terminal nearly twice as
/// slow as the same run with stderr redirected (bench/HISTORY.md 1). The ticker also shows the step
/// a run is waiting in, and its time going on.
final class ProgressLine: Sendable {
    static let redraws = 10

    private struct State {
        var done = 0
        var path = ""
        var step = ""
        var stopped = false
    }

    /// Whether it draws: stderr is a terminal that is not dumb.
    let enabled: Bool
    private let total: Int
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private let state = Mutex(State())
    private nonisolated(unsafe) let ticker: DispatchSourceTimer?

    init(total: Int) {
        self.total = total
        enabled = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        started = clock.now
        ticker = enabled ? DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tcpprobe.progress")) : nil
        guard let ticker else { return }
        let interval = DispatchTimeInterval.milliseconds(1000 / Self.redraws)
        ticker.schedule(deadline: .now() + interval, repeating: interval)
        ticker.setEventHandler { [weak self] in self?.redraw() }
        ticker.resume()
    }

    /// Notes the step `path` runs now; the next tick shows it.
    func step(_ path: String, _ step: String) {
        guard enabled else { return }
        state.withLock {
            $0.path = path
            $0.step = step
        }
    }

    /// Prints a finished scenario's result above the line (`printResult` writes it), counts
    /// the scenario done, and draws the line again below it.
    func finished(printing printResult: () -> Void) {
        guard enabled else { return printResult() }
        state.withLock { state in
            guard !state.stopped else { return printResult() }
            Terminal.writeError(Self.erase)
            printResult()
            state.done += 1
            draw(state)
        }
    }

    /// Stops drawing and clears the line, before the run's closing output.
    func stop() {
        guard enabled else { return }
        ticker?.cancel()
        state.withLock { state in
            state.stopped = true
            Terminal.writeError(Self.erase)
        }
    }

    private static let erase = "\r\u{1B}[2K"

    private func redraw() {
        state.withLock { state in
            if !state.stopped { draw(state) }
        }
    }

    private func draw(_ state: State) {
        let tenths = Int((clock.now - started) / .milliseconds(100))
        let step = state.path.isEmpty ? "" : "\(URL(filePath: state.path).lastPathComponent): \(state.step)"
        let text = "[\(state.done)/\(total)] \(tenths / 10).\(tenths % 10)s \(step)"
        Terminal.writeError(Self.erase + String(text.prefix(120)))
    }
}
