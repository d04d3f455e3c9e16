import NIOCore
import ProbeScript

/// One direction of a proxy link as expects read it: what passed, watched, not taken out of
/// the forwarded stream.
final class ProxyWatch: ExpectSource, Sendable {
    let label: String
    private let pump: ProxyPump
    let eventLoop: EventLoop

    init(proxy: String, link: ProxyLink, direction: ProxyDirection) {
        label = "proxy '\(proxy)' connection \(link.number) \(direction.rawValue)"
        pump = link.pump(direction)
        eventLoop = link.front.eventLoop
    }

    func expect(_ matcher: ExpectationMatcher, timeout: TimeAmount, decided: @escaping @Sendable (MatchOutcome) -> Void) {
        let watch = pump.watch
        let loop = eventLoop
        loop.execute { watch.expect(matcher, timeout: timeout, on: loop, decided: decided) }
    }

    func recentBytes() async -> (bytes: [UInt8], total: Int) {
        let watch = pump.watch
        return (try? await eventLoop.submit { (watch.recent.bytes, watch.recent.total) }.get()) ?? ([], 0)
    }

    /// Bytes the watch dropped unread, over its limit.
    func droppedUnread() async -> Int {
        let watch = pump.watch
        return (try? await eventLoop.submit { watch.droppedUnread }.get()) ?? 0
    }
}
