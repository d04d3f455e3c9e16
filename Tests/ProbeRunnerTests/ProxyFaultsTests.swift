import ProbeHost
@testable import ProbeRunner
import Testing

/// How a direction cuts what it reads into pieces, by its faults.
@Suite struct ProxyFaultsTests {
    /// Under a rate a piece is a twentieth of a second's worth, so the rate holds within a chunk:
    /// at least a byte, at most 64 KiB; a slice draws its size; with neither, a read goes whole.
    @Test func aPieceIsATwentiethOfASecondUnderARate() {
        var random = SeededGenerator(seed: 7)
        func piece(_ change: ProxyFaults.Change) -> Int? {
            var faults = ProxyFaults()
            faults.apply(change)
            return faults.pieceSize(&random)
        }
        #expect(piece(.rate(16 * 1024)) == 819)
        #expect(piece(.rate(10)) == 1)
        #expect(piece(.rate(100 * 1024 * 1024)) == 64 * 1024)
        #expect(piece(.slice(min: 3, max: 3, every: .zero)) == 3)
        #expect(piece(.delay(.zero, jitter: .zero)) == nil)
    }
}
