@testable import ProbeRunner
import ProbeResults
import Testing

/// `run --part K/N`: each part runs its share of every `parallel` block's copies, the parts
/// together each copy exactly once, and leaves the asserts on whole blocks for `merge`.
@Suite struct LoadPartTests {
    @Test func everyCopyFallsToExactlyOnePart() {
        for copies in [1, 2, 3, 7, 10, 100, 1001, 100_000] {
            for count in 1...9 {
                let ranges = (1...count).map { LoadPart(index: $0, count: count).copies(of: copies) }
                #expect(ranges.flatMap { Array($0) } == Array(0..<copies), "\(copies) copies in \(count) parts")
                // As even as whole copies allow: the shares differ by one at most.
                #expect(ranges.map(\.count).max()! - ranges.map(\.count).min()! <= 1)
            }
        }
    }

    @Test func partsParseAsKOfN() {
        #expect(LoadPart("3/8") == LoadPart(index: 3, count: 8))
        for wrong in ["0/3", "4/3", "3", "a/b", "1/0", ""] { #expect(LoadPart(wrong) == nil, "\(wrong)") }
    }

    @Test func autoTakesAnIndexedJobsIndex() {
        #expect(LoadPart.fromEnvironment(["JOB_COMPLETION_INDEX": "0", "TCPPROBE_PARTS": "4"]) == .success(LoadPart(index: 1, count: 4)))
        #expect(LoadPart.fromEnvironment(["JOB_COMPLETION_INDEX": "3", "TCPPROBE_PARTS": "4"]) == .success(LoadPart(index: 4, count: 4)))
        #expect(LoadPart.fromEnvironment(["TCPPROBE_PARTS": "4"]) == .failure(.missing("JOB_COMPLETION_INDEX", "the part's index from 0, which a Kubernetes Indexed Job sets")))
        #expect(LoadPart.fromEnvironment(["JOB_COMPLETION_INDEX": "0"]) == .failure(.missing("TCPPROBE_PARTS", "the number of parts, N")))
        #expect(LoadPart.fromEnvironment(["JOB_COMPLETION_INDEX": "4", "TCPPROBE_PARTS": "4"]) == .failure(.notANumber("JOB_COMPLETION_INDEX", "4", "0 to 3, as TCPPROBE_PARTS is 4")))
        #expect(LoadPart.fromEnvironment(["JOB_COMPLETION_INDEX": "0", "TCPPROBE_PARTS": "0"]) == .failure(.notANumber("TCPPROBE_PARTS", "0", "1 or more")))
    }

    @Test func thePartsRunEachCopyOnceWithItsNumberInTheWholeLoad() async throws {
        let peer = try await TestPeer.start(.echo)
        let scenario = """
            set timeout 2s
            var least = "99.9%"
            parallel 10 {
              connect 127.0.0.1:{port}
              send line "copy {copy}"
              expect line "copy {copy}"
            }
            assert copies passed >= {least}
            assert latency p99 < 2s
            """
        var shares: [ParallelSummary.Share] = []
        for index in 1...3 {
            let result = try await ScenarioHarness.run(scenario, against: peer, part: LoadPart(index: index, count: 3))
            result.expectPassed()
            let summary = try #require(result.parallel.first)
            shares.append(try #require(summary.share))
            #expect(summary.copies == summary.passed && summary.expects == summary.copies)
            // The asserts are left for the merge, their values resolved.
            #expect(result.unjudged.map(\.step) == ["assert copies passed >= 99.9%", "assert latency p99 < 2s"])
            #expect(result.unjudged.map(\.block.line) == [3, 3])
        }
        #expect(shares.map(\.firstCopy) == [0, 3, 6] && shares.allSatisfy { $0.wholeBlock == 10 })
        let lines = String(decoding: peer.log.received, as: UTF8.self).split(separator: "\r\n").map(String.init)
        #expect(lines.sorted() == (0..<10).map { "copy \($0)" }.sorted())
    }

    @Test func aPartWithNoCopiesSaysSo() async throws {
        let result = try await ScenarioHarness.run("parallel 2 { sleep 1ms }\nassert copies passed = 100%", part: LoadPart(index: 3, count: 4))
        result.expectPassed()
        #expect(result.parallel.first?.description == "no copy of 2 falls to part 3/4")
    }
}
