import NIOConcurrencyHelpers

/// The part every transport shares: its state, its event stream, and its unframer.
/// Thread-safe; each implementation calls it from its own I/O context.
final class TransportCore: @unchecked Sendable {
    let events: AsyncStream<TransportEvent>
    private let continuation: AsyncStream<TransportEvent>.Continuation
    private let lock = NIOLock()
    private var _state: TransportState = .initialised
    private var unframer: any LineUnframer
    private var discarding = false

    init(unframer: any LineUnframer) {
        (events, continuation) = AsyncStream.makeStream(of: TransportEvent.self)
        self.unframer = unframer
    }

    var state: TransportState { lock.withLock { _state } }

    /// Moves from initialised to starting; false when already started or stopped.
    func beginStarting() -> Bool {
        lock.withLock {
            guard case .initialised = _state else { return false }
            _state = .starting
            return true
        }
    }

    func started() {
        lock.withLock { _state = .started }
        continuation.yield(.started)
    }

    /// Unframes `bytes` and reports the lines; after a framing error, input is discarded.
    func received(_ bytes: some Collection<UInt8>) {
        let (lines, failure): ([String], (any Error)?) = lock.withLock {
            guard !discarding else { return ([], nil) }
            do {
                return (try unframer.append(bytes), nil)
            } catch {
                discarding = true
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
        let rest = lock.withLock { discarding ? [] : unframer.finish() }
        for line in rest { continuation.yield(.received(line)) }
        continuation.yield(.peerClosed)
    }

    /// Reports the end, once.
    func stopped(_ error: (any Error)?) {
        let first = lock.withLock { () -> Bool in
            if _state.isStopped { return false }
            _state = .stopped(error)
            return true
        }
        guard first else { return }
        continuation.yield(.stopped(error))
        continuation.finish()
    }
}
