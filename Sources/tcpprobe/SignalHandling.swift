import Foundation
import ProbeRunner

/// Ctrl-C and SIGTERM: stop every spawned subject's process group, then exit 130 or 143.
enum SignalHandling {
    private nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

    static func install() {
        for (number, code) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Terminal.printError("interrupted: stopping subjects")
                SubjectRegistry.shared.stopAll(grace: 0.5)
                exit(code)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Lifts the soft limit on open files to the hard limit, for large `parallel` blocks.
    static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
