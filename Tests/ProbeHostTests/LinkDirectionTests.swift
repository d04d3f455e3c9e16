import ProbeHost
import Testing

/// A link direction's verdicts, packet by packet, on a clock the test moves: no devices, no privilege.
@Suite struct LinkDirectionTests {
    private let millisecond: Int64 = 1_000_000

    /// The verdicts on `count` packets of 100 bytes, one a millisecond.
    private func verdicts(_ faults: LinkFaults, count: Int, seed: UInt64 = 7) -> (verdicts: [LinkDirection.Verdict], counts: LinkCounts) {
        var direction = LinkDirection()
        direction.faults = faults
        var random = SeededGenerator(seed: seed)
        let verdicts = (0..<count).map { direction.admit(size: 100, at: Int64($0) * millisecond, queued: 0, using: &random) }
        return (verdicts, direction.counts)
    }

    @Test func lossDropsItsShareAndBurstsDropInRuns() {
        var faults = LinkFaults()
        faults.loss = 0.1
        let (plain, counts) = verdicts(faults, count: 10_000)
        #expect((900...1_100).contains(counts.dropped), "\(counts.dropped) of 10,000 dropped at 10%")
        #expect(plain.filter { $0 == .drop }.count == counts.dropped)
        faults.lossBurst = 3
        let (bursty, _) = verdicts(faults, count: 10_000)
        // Every run of drops is whole bursts of three.
        let runs = bursty.split(whereSeparator: { $0 != .drop }).map(\.count)
        #expect(!runs.isEmpty && runs.allSatisfy { $0 % 3 == 0 }, "\(runs.prefix(20))")
    }

    @Test func aPartitionDropsEverythingUntilHealed() {
        var direction = LinkDirection()
        var random = SeededGenerator(seed: 1)
        direction.faults.partitioned = true
        #expect(direction.admit(size: 60, at: 0, queued: 0, using: &random) == .drop)
        direction.faults.partitioned = false
        #expect(direction.admit(size: 60, at: 5, queued: 0, using: &random) == .send(at: 5, twice: false))
        #expect(direction.counts.dropped == 1 && direction.counts.packets == 2)
    }

    @Test func aDelayWithJitterHoldsEachPacketAndKeepsTheirOrder() {
        var faults = LinkFaults()
        faults.delay = 50 * millisecond
        faults.jitter = 20 * millisecond
        let (all, counts) = verdicts(faults, count: 1_000)
        let releases = all.compactMap { if case .send(let at, _) = $0 { return at } else { return nil } }
        #expect(releases.count == 1_000 && counts.delayed == 1_000)
        #expect(zip(releases, releases.dropFirst()).allSatisfy { $0 <= $1 }, "jitter reordered packets")
        for (index, release) in releases.enumerated() {
            let held = release - Int64(index) * millisecond
            #expect(held >= 30 * millisecond && held <= 70 * millisecond + millisecond, "packet \(index) held \(held) ns")
        }
    }

    @Test func reorderHoldsItsShareBackSoLaterPacketsOvertake() {
        var faults = LinkFaults()
        faults.reorder = 0.2
        faults.reorderGap = 5 * millisecond
        let (all, counts) = verdicts(faults, count: 1_000)
        #expect((150...250).contains(counts.reordered))
        let releases = all.compactMap { if case .send(let at, _) = $0 { return at } else { return nil } }
        let overtaken = zip(releases, releases.dropFirst()).filter { $0 > $1 }.count
        #expect(overtaken > 100, "\(overtaken) packets left after the one behind them")
    }

    @Test func duplicateSendsItsShareTwice() {
        var faults = LinkFaults()
        faults.duplicate = 1
        let (all, counts) = verdicts(faults, count: 10)
        #expect(all.allSatisfy { if case .send(_, true) = $0 { return true } else { return false } })
        #expect(counts.duplicated == 10)
    }

    @Test func aRatePacesPacketsAndAFullQueueDrops() {
        var direction = LinkDirection()
        var random = SeededGenerator(seed: 1)
        direction.faults.rate = 1_000 // 100 bytes take 100 ms
        #expect(direction.admit(size: 100, at: 0, queued: 0, using: &random) == .send(at: 100 * millisecond, twice: false))
        #expect(direction.admit(size: 100, at: 0, queued: 1, using: &random) == .send(at: 200 * millisecond, twice: false))
        #expect(direction.admit(size: 100, at: 0, queued: LinkDirection.queueLimit, using: &random) == .drop)
        #expect(direction.counts.overflowed == 1 && direction.counts.delayed == 2)
    }

    @Test func countsSayWhatTheLinkDid() {
        var counts = LinkCounts()
        counts.packets = 12
        counts.bytes = 960
        counts.dropped = 2
        counts.duplicated = 1
        #expect(counts.summary == "12 packets (960 bytes): 2 dropped, 1 duplicated")
        #expect(LinkCounts().summary == "0 packets (0 bytes)")
    }
}
