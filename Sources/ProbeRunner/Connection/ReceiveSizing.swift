import NIOCore

/// How much one read of a connection's socket may take: NIO's adaptive size, or exactly a slow
/// read's size (`read slowly N bytes …`), on every read and not only the first.
///
/// NIO reads into a pooled buffer and fills all of its capacity: a buffer grown by earlier
/// reads is reused whenever the allocator names a next size (`nextBufferSize()`), and a buffer
/// is kept whenever the last read said it would not grow. So an exact read names no next size,
/// always says it may grow (no pooled buffer is reused), and hands over a buffer whose writable
/// room is exactly its size, though ByteBuffer rounds capacity up to a power of two. The
/// adaptive case says it may grow after each read too, so the read after it switches to exact
/// finds no buffer kept.
struct ReceiveSizing: RecvByteBufferAllocator {
    private enum Mode {
        case adaptive(AdaptiveRecvByteBufferAllocator)
        case exactly(Int)
    }

    private var mode: Mode

    /// NIO's own sizing, starting afresh.
    static var adaptive: ReceiveSizing { ReceiveSizing(mode: .adaptive(AdaptiveRecvByteBufferAllocator())) }

    /// Every read takes at most `bytes`.
    static func exactly(_ bytes: Int) -> ReceiveSizing {
        precondition(bytes > 0)
        return ReceiveSizing(mode: .exactly(bytes))
    }

    func buffer(allocator: ByteBufferAllocator) -> ByteBuffer {
        switch mode {
        case .adaptive(let sizing):
            return sizing.buffer(allocator: allocator)
        case .exactly(let bytes):
            var buffer = allocator.buffer(capacity: bytes)
            // The capacity is a power of two: the room before the read's start is skipped.
            let skipped = buffer.capacity - bytes
            buffer.moveWriterIndex(forwardBy: skipped)
            buffer.moveReaderIndex(forwardBy: skipped)
            return buffer
        }
    }

    func nextBufferSize() -> Int? {
        switch mode {
        case .adaptive(let sizing): sizing.nextBufferSize()
        case .exactly: nil
        }
    }

    mutating func record(actualReadBytes: Int) -> Bool {
        if case .adaptive(var sizing) = mode {
            _ = sizing.record(actualReadBytes: actualReadBytes)
            mode = .adaptive(sizing)
        }
        return true
    }
}
