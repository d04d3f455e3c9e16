import Testing
import ProbeHost

/// `send random` with `--seed` must send the same bytes in every release: the stream is pinned.
@Suite struct SeededGeneratorTests {
    /// The next `count` bytes of `generator`'s stream.
    private func bytes(_ generator: inout SeededGenerator, _ count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        buffer.withUnsafeMutableBytes { generator.fill($0) }
        return buffer
    }

    @Test func theStreamOfASeedIsPinned() {
        var generator = SeededGenerator(seed: 7)
        #expect(bytes(&generator, 20) == [215, 13, 50, 89, 228, 225, 203, 99, 28, 102, 60, 244, 215, 60, 76, 4, 2, 42, 177, 186])
        var far = SeededGenerator(seed: 7)
        _ = bytes(&far, 1 << 20)
        #expect(bytes(&far, 5) == [102, 203, 185, 122, 225])
    }

    @Test func pieceByPieceIsTheWholeStream() {
        var whole = SeededGenerator(seed: 99)
        let expected = bytes(&whole, 1_000)
        var pieces = SeededGenerator(seed: 99)
        var joined: [UInt8] = []
        for size in [3, 5, 8, 13, 1, 0, 64, 7, 100, 799] {
            joined += bytes(&pieces, size)
        }
        #expect(joined == expected)
    }
}
