#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import ProbeHost
import ProbeScript

/// Why a connect failed, in the terms of `connect ... expect refused|timeout`.
struct ConnectFailure: CustomStringConvertible, Equatable, Sendable {
    enum Reason: Equatable, Sendable { case refused, timeout, reset, noLocalPort, other(String) }
    let reason: Reason

    init(_ error: Error) {
        reason = ConnectFailure.classify(error)
    }

    private static func classify(_ error: Error) -> Reason {
        if let error = error as? IOError {
            if error.errnoCode == ECONNREFUSED { return .refused }
            if error.errnoCode == ETIMEDOUT { return .timeout }
            if error.errnoCode == ECONNRESET { return .reset }
            // connect(2) on a socket with no port yet: the kernel found no port to give it.
            if error.errnoCode == EADDRNOTAVAIL { return .noLocalPort }
        }
        if case ChannelError.connectTimeout = error { return .timeout }
        return .other("\(error)")
    }

    func matches(_ expected: ConnectStep.Failure) -> Bool {
        switch (reason, expected) {
        case (.refused, .refused), (.timeout, .timeout): return true
        default: return false
        }
    }

    var description: String {
        switch reason {
        case .refused: return "refused (nothing listens there)"
        case .timeout: return "timeout (no answer to SYN)"
        case .reset: return "reset (the peer accepted, then sent RST before the connect completed)"
        case .noLocalPort:
            let range = FreePort.ephemeralRange().map { " (\($0.lowerBound)-\($0.upperBound), net.ipv4.ip_local_port_range)" } ?? ""
            return "no local port left to connect from: the kernel's ephemeral ports\(range) are all taken for this destination; "
                + "a `from` range (`connect … from 127.0.0.0/8`) gives each source address ports of its own"
        case .other(let message): return message
        }
    }
}
