import Synchronization

/// The part every transport shares: its state, its event stream, and its unframer.
/// Thread-safe; each implementation calls it from its own I/O context.
final class TransportCore: Sendable {
    let events: AsyncStream<TransportEvent>
    private let continuation: AsyncStream<TransportEvent>.Continuation
    /// Its state and its unframer; after a framing error input is discarded.
    private struct Inner {
        var state: TransportState = .initialised
        var unframer: any LineUnframer
        var discarding = false
    }
    private let inner: Mutex<Inner>

    init(unframer: any LineUnframer) {
        (events, continuation) = AsyncStream.makeStream(of: TransportEvent.self)
        inner = Mutex(Inner(unframer: unframer))
    }

    var state: TransportState { inner.withLock { $0.state } }

    /// Moves from initialised to starting; false when already started or stopped.
    func beginStarting() -> Bool {
        inner.withLock { inner in
            guard case .initialised = inner.state else { return false }
            inner.state = .starting
            return true
        }
    }

    func started() {
        inner.withLock { $0.state = .started }
        continuation.yield(.started)
    }

    /// Unframes `bytes` and reports the lines; after a framing error, input is discarded.
    func received(_ bytes: some Collection<UInt8>) {
        let (lines, failure): ([String], (any Error)?) = inner.withLock { inner in
            guard !inner.discarding else { return ([], nil) }
            do {
                return (try inner.unframer.append(bytes), nil)
            } catch {
                inner.discarding = true
                return ([], error)
            }
        }
        for line in lines { continuation.yield(.received(line)) }
        if let failure { continuation.yield(.framingError(failure)) }
    }

    /// A message already framed by its protocol (a WebSocket text message), reported as a line.
    func received(line: String) {
        continuation.yield(.received(line))
    }

    /// The peer's FIN: whatever the unframer still holds is offered first.
    func peerClosed() {
        let rest = inner.withLock { $0.discarding ? [] : $0.unframer.finish() }
        for line in rest { continuation.yield(.received(line)) }
        continuation.yield(.peerClosed)
    }

    /// Reports the end, once.
    func stopped(_ error: (any Error)?) {
        let first = inner.withLock { inner -> Bool in
            if inner.state.isStopped { return false }
            inner.state = .stopped(error)
            return true
        }
        guard first else { return }
        continuation.yield(.stopped(error))
        continuation.finish()
    }
}
