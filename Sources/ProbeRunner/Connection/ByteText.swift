import NIOCore

/// The bytes an `expect until /RE/` has received so far, as text of one character to a byte
/// (U+0000-U+00FF), so its regex reads bytes and its offsets are byte offsets. It grows by
/// what each read adds: made again from every byte at every read, a window dripped a byte at a
/// time cost time in the square of its size.
struct ByteText {
    private(set) var text = ""

    /// How many of the buffer's first bytes `text` holds.
    private(set) var count = 0

    /// Brings `text` up to the buffer's first `limit` readable bytes: a buffer that, while its
    /// expect waits, only grows.
    mutating func update(from buffer: ByteBuffer, limit: Int) {
        let available = min(buffer.readableBytes, limit)
        assert(available >= count, "an expect's bytes were read while it waited")
        buffer.withUnsafeReadableBytes { bytes in
            let added = UnsafeRawBufferPointer(rebasing: bytes[count..<available])
            if !added.contains(where: { $0 >= 0x80 }) {
                text += String(decoding: added, as: UTF8.self)
                return
            }
            // U+0080-U+00FF: two bytes of UTF-8 each.
            var utf8: [UInt8] = []
            utf8.reserveCapacity(added.count * 2)
            for byte in added {
                if byte < 0x80 {
                    utf8.append(byte)
                } else {
                    utf8.append(0xC0 | byte >> 6)
                    utf8.append(0x80 | byte & 0x3F)
                }
            }
            text += String(decoding: utf8, as: UTF8.self)
        }
        count = available
    }
}
