/// A small, fast, reproducible generator (SplitMix64) for `send random`.
///
/// `bytes(_:)` hands out one continuous stream: asking for 3 then 5 bytes gives the same 8 bytes
/// as asking for 8, so a large send can be made piece by piece as it is written.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    /// The unused high bytes of the last word, lowest first.
    private var leftover: UInt64 = 0
    private var leftoverCount = 0

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next `count` bytes of the stream: each word's bytes, lowest first.
    mutating func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialised in
            var index = 0
            while index < count {
                if leftoverCount == 0, count - index >= 8 {
                    UnsafeMutableRawBufferPointer(buffer).storeBytes(of: next().littleEndian, toByteOffset: index, as: UInt64.self)
                    index += 8
                    continue
                }
                if leftoverCount == 0 { (leftover, leftoverCount) = (next(), 8) }
                buffer[index] = UInt8(truncatingIfNeeded: leftover)
                leftover >>= 8
                leftoverCount -= 1
                index += 1
            }
            initialised = count
        }
    }
}
