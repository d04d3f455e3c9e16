import NIOCore
import ProbeFraming
#if canImport(Glibc)
import Glibc
#endif

extension InboundEnd {
    /// How a stream ended when its channel caught `error`, or a write failed with it: the
    /// peer's RST for ECONNRESET, else a failure that names the error. The one mapping for
    /// the probe's connections, the proxy's legs and cut-off sends.
    init(caught error: Error) {
        if let error = error as? IOError, error.errnoCode == ECONNRESET {
            self = .reset
        } else {
            self = .error("\(error)")
        }
    }
}
