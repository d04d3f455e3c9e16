/// A small, fast, reproducible generator (SplitMix64) for `send random`, a proxy's and a
/// network's random faults.
///
/// `fill(_:)` hands out one continuous stream: asking for 3 then 5 bytes gives the same 8 bytes
/// as asking for 8, so a large send can be made piece by piece as it is written.
package struct SeededGenerator: RandomNumberGenerator {
    /// The seed it started from, which a report names so a run can be repeated.
    package let seed: UInt64
    private var state: UInt64
    /// The unused high bytes of the last word, lowest first.
    private var leftover: UInt64 = 0
    private var leftoverCount = 0

    package init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    private static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inline(__always)
    private static func mix(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Fills `buffer` with the next bytes of the stream: each word's bytes, lowest first. Whole
    /// words go straight into the buffer in a tight loop, fast enough for gigabytes.
    package mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        let count = buffer.count
        var index = 0
        func takeLeftover() {
            while index < count, leftoverCount > 0 {
                buffer[index] = UInt8(truncatingIfNeeded: leftover)
                leftover >>= 8
                leftoverCount -= 1
                index += 1
            }
        }
        takeLeftover()
        let wholeWords = (count - index) / 8
        if wholeWords > 0, let base = buffer.baseAddress {
            let start = base + index
            var word = state
            for offset in stride(from: 0, to: wholeWords * 8, by: 8) {
                word &+= Self.increment
                start.storeBytes(of: Self.mix(word).littleEndian, toByteOffset: offset, as: UInt64.self)
            }
            state = word
            index += wholeWords * 8
        }
        if index < count {
            (leftover, leftoverCount) = (next(), 8)
            takeLeftover()
        }
    }
}
