import ProbeResults
import ProbeScript

/// Why a proxy step failed.
enum ProxyFailure: FailureReason, Equatable {
    /// A proxy step (`keyword`) with no proxy named before it.
    case unnamed(keyword: String)
    /// A fault on `NAME.N:`, one connection of the proxy.
    case faultOnOneLink(proxy: String)
    /// `rate 0`.
    case rateBelowOne
    /// `slice N..M` with N < 1 or N > M.
    case badSlice(low: Int, high: Int)
    /// `NAME.N: expect …` when the proxy had fewer connections by the end of the wait.
    case noSuchLink(proxy: String, number: Int, open: Int, waited: Duration)
    /// `NAME: expect …` when no client came within the wait.
    case noClient(proxy: String, waited: Duration)

    var description: String {
        switch self {
        case .unnamed(let keyword): "'\(keyword)' acts on a proxy: name it, as in 'p: \(keyword) …'"
        case .faultOnOneLink(let proxy): "a fault applies to every connection of proxy '\(proxy)': name the proxy alone"
        case .rateBelowOne: "a rate must be at least 1 byte a second"
        case .badSlice(let low, let high): "a slice of \(low)..\(high) bytes: it takes 1 <= N <= M"
        case .noSuchLink(let proxy, let number, let open, let waited):
            "proxy '\(proxy)' has no connection \(number) (\(open == 1 ? "1 connection" : "\(open) connections") open after \(DurationFormat.short(waited)))"
        case .noClient(let proxy, let waited): "no client connected to proxy '\(proxy)' within \(DurationFormat.short(waited))"
        }
    }
}
