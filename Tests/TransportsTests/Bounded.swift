import Transports

/// Runs `body` for at most `limit`: a transport that never accepts or never delivers fails its
/// test instead of hanging the run. Nil when the limit came first.
func bounded<T: Sendable>(_ limit: Duration = .seconds(5), _ body: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next()!
        group.cancelAll()
        return first
    }
}

/// The listener's first accepted connection, or nil when none came within 5 s.
func firstConnection(of listener: any TransportListener) async -> (any TCPTransport)? {
    await bounded { await listener.connections.first { _ in true } } ?? nil
}

/// A transport's events as words ("started", "line:TEXT", "peer-closed", "stopped",
/// "stopped:error", and with `showingErrors` "stopped:error:WHY"), until it stops or `timeout`
/// passes ("timed out").
func eventLog(of transport: any TCPTransport, timeout: Duration = .seconds(5), showingErrors: Bool = false) async -> [String] {
    await bounded(timeout) {
        var seen: [String] = []
        for await event in transport.events {
            switch event {
            case .started: seen.append("started")
            case .received(let line): seen.append("line:\(line)")
            case .framingError: seen.append("framing-error")
            case .peerClosed: seen.append("peer-closed")
            case .stopped(nil): seen.append("stopped")
            case .stopped(let error?): seen.append(showingErrors ? "stopped:error:\(error)" : "stopped:error")
            }
        }
        return seen
    } ?? ["timed out"]
}
