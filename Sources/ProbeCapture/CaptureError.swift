/// Why a capture could not start or run.
package enum CaptureError: Error, CustomStringConvertible, Sendable {
    /// No CAP_NET_RAW: the reason, and the remedy.
    case permissionDenied(String)
    case failed(String)

    package static let remedy = "run as root, or grant the binary the capability: sudo setcap cap_net_raw,cap_net_admin+eip $(which tcpprobe)"

    package var description: String {
        switch self {
        case .permissionDenied(let message): return "no permission to capture (\(message)); \(CaptureError.remedy)"
        case .failed(let message): return message
        }
    }
}
