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

    func expect(_ waiting: sending WaitingExpect, timeout: TimeAmount) {
        let pump = self.pump
        let loop = eventLoop
        let sent = NIOLoopBoundBox.makeBoxSendingValue(waiting, eventLoop: loop)
        loop.execute { pump.watch.expect(sent.value, timeout: timeout, on: loop) }
    }

    func recentBytes() async -> (bytes: [UInt8], total: Int) {
        let pump = self.pump
        return (try? await eventLoop.submit { (pump.watch.recent.bytes, pump.watch.recent.total) }.get()) ?? ([], 0)
    }

    /// Bytes the watch dropped unread, over its limit.
    func droppedUnread() async -> Int {
        let pump = self.pump
        return (try? await eventLoop.submit { pump.watch.droppedUnread }.get()) ?? 0
    }
}
