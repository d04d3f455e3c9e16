import NIOCore
import ProbeHost
import ProbeResults
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

/// The reasons steps of every family fail for: names, values, the deadline, a port.
enum CommonFailure: FailureReason, Equatable {
    /// A step names a `what` (network, proxy, subject, listener, connection) no step made.
    /// `known` are the names there are, `none` says there are none, `listed` leads the list.
    case unknown(what: String, name: String, known: [String], none: String, listed: String)
    /// A second `what` under a name in use (`state`: open, made, running).
    case nameTaken(what: String, name: String, state: String)
    /// An argument whose variables rendered `rendered`, which is not `what`.
    case notAValue(argument: String, rendered: String, what: String)
    /// A regex whose variables made it invalid.
    case regexDoesNotCompile(regex: String, error: String)
    /// The scenario's deadline passed `when` ("before this step", "during the sleep").
    case deadlinePassed(deadline: Duration, when: String)
    /// A bind or listen that failed, in the system's words, with what holds the port.
    case cannotListen(address: String, reason: String, holders: String?)
    /// The run was cancelled (an interrupt, or a suite's time running out).
    case interrupted
    /// An error no step turned into a failure of its own.
    case unexpected(String)

    var kind: StepFailure.Kind {
        switch self {
        case .cannotListen, .interrupted, .unexpected: .environment
        default: .assertion
        }
    }

    var description: String {
        switch self {
        case .unknown(let what, let name, let known, let none, let listed):
            "no \(what) named '\(name)' (\(known.isEmpty ? none : listed + ": " + known.joined(separator: ", ")))"
        case .nameTaken(let what, let name, let state):
            "a \(what) named '\(name)' is already \(state)"
        case .notAValue(let argument, let rendered, let what):
            "'\(argument)' gives '\(rendered)', which is not \(what)"
        case .regexDoesNotCompile(let regex, let error):
            "the regex \(regex) does not compile once its variables are filled in: \(error)"
        case .deadlinePassed(let deadline, let when):
            "the scenario deadline of \(DurationFormat.short(deadline)) passed \(when)"
        case .cannotListen(let address, let reason, let holders):
            "cannot listen on \(address): \(reason)" + (holders.map { "\n" + $0 } ?? "")
        case .interrupted: "interrupted"
        case .unexpected(let error): "unexpected error: \(error)"
        }
    }
}

extension CommonFailure {
    /// A bind or listen on `address` that failed with `error`: the system's words ("Address
    /// already in use", not NIO's rendering of the call), with what holds the port.
    static func cannotListen(on address: Address, _ error: Error) -> CommonFailure {
        let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
        return .cannotListen(address: "\(address)", reason: reason, holders: address.port == 0 ? nil : PortHolders.describe(port: address.port))
    }
}
