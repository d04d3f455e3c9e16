/// The life of a transport: initialised → starting → started → stopped(error?).
public enum TransportState: Sendable, CustomStringConvertible {
    case initialised
    case starting
    case started
    case stopped((any Error)?)

    public var isStopped: Bool {
        if case .stopped = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .initialised: return "initialised"
        case .starting: return "starting"
        case .started: return "started"
        case .stopped(let error?): return "stopped(\(error))"
        case .stopped(nil): return "stopped"
        }
    }
}
