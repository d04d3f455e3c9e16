import NIOCore

extension Channel {
    /// Writes and flushes `bytes` outside any step's send (a layer's ACK or pong), and tells
    /// `counting` their size once the socket took them, so that stream offsets stay true.
    func writeAndFlush(_ bytes: ByteBuffer, counting: @escaping @Sendable (Int) -> Void) {
        let count = bytes.readableBytes
        let written = eventLoop.makePromise(of: Void.self)
        written.futureResult.whenSuccess { counting(count) }
        writeAndFlush(bytes, promise: written)
    }
}
