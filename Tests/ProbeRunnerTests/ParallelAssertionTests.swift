@testable import ProbeRunner
import ProbeResults
import ProbeScript
import Testing

/// `assert copies` and `assert latency` judge the `parallel` block before them, in one run.
@Suite struct ParallelAssertionTests {
    /// Ten copies against an echo peer, of which copies 0, 1 and 2 expect a line that does not come.
    private static let sevenOfTen = """
        set timeout 300ms
        parallel 10 {
          connect 127.0.0.1:{port}
          send line "hi {copy}"
          expect line /hi [3-9]/
        }

        """

    @Test func anAssertCopiesJudgesTheBlocksFailuresInsteadOfTheBlock() async throws {
        let peer = try await TestPeer.start(.echo)
        let result = try await ScenarioHarness.run(Self.sevenOfTen + """
            assert copies passed >= 70%
            assert copies failed = 3
            assert copies passed < 8
            """, against: peer)
        result.expectPassed()
        let summary = try #require(result.parallel.first)
        #expect((summary.passed, summary.failed) == (7, 3))
        // The first failures stay in the report, as notes.
        #expect(result.notes.contains { $0.hasPrefix("test.scn:2 parallel 10: copy 0 failed: test.scn:5 ") })
    }

    @Test func anAssertCopiesThatDoesNotHoldFailsWithTheCounts() async throws {
        let peer = try await TestPeer.start(.echo)
        let result = try await ScenarioHarness.run(Self.sevenOfTen + "assert copies passed >= 70.1%", against: peer)
        let failure = try #require(result.failure)
        #expect(failure.location.line == 7)
        #expect(failure.reason as? ParallelFailure == .copiesNotMet(outcome: "passed", asked: ">= 70.1%", counted: 7, copies: 10, block: "test.scn:2"))
    }

    @Test func withoutAnAssertCopiesTheBlockFailsAtItsFirstFailingCopy() async throws {
        let peer = try await TestPeer.start(.echo)
        let result = try await ScenarioHarness.run(Self.sevenOfTen + "assert latency max < 1h", against: peer)
        let failure = try #require(result.failure)
        #expect(failure.location.line == 5)
        #expect(failure.message.hasPrefix("copy 0 of parallel 10 (test.scn:2) failed; 7 of 10 copies passed, 3 failed"))
    }

    @Test func aShareIsExactAtItsBoundary() {
        // 999 of 1,000 is 99.9%, not a rounding error under it.
        let summary = ParallelSummary(location: SourceLocation(file: "t.scn", line: 1, column: 1), copies: 1000, passed: 999, latencies: [])
        for (op, holds) in [(">=", true), (">", false), ("=", true), ("<", false), ("<=", true)] {
            #expect(summary.holds(.passed, ComparisonOperator(rawValue: op)!, share: 99.9) == holds, "passed \(op) 99.9%")
        }
        #expect(summary.holds(.failed, .equal, share: 0.1))
        #expect(!summary.holds(.failed, .less, share: 0.1))
    }

    @Test func anAssertLatencyReadsTheBlocksExpects() async throws {
        let peer = try await TestPeer.start(.echo)
        let passing = try await ScenarioHarness.run("""
            set timeout 2s
            parallel 4 {
              connect 127.0.0.1:{port}
              send line "hi"
              expect line "hi"
            }
            assert latency p50 < 1h
            assert latency p99.9 <= 1h
            assert latency max < 1h
            """, against: peer)
        passing.expectPassed()
        #expect(passing.parallel.first?.expects == 4)
        let failing = try await ScenarioHarness.run("""
            set timeout 2s
            parallel 4 {
              connect 127.0.0.1:{port}
              send line "hi"
              expect line "hi"
            }
            assert latency p90 >= 1h
            """, against: peer)
        guard case .latencyNotMet(let statistic, let asked, let measured, let expects, let block)? = try #require(failing.failure).reason as? ParallelFailure else {
            Issue.record("not a latencyNotMet: \(String(describing: failing.failure))")
            return
        }
        #expect((statistic, asked, expects, block) == ("p90", ">= 1h", 4, "test.scn:2"))
        #expect(measured > .zero && measured < .seconds(2))
    }

    @Test func percentilesComeFromEveryExpectOfTheBlock() {
        // 1..1000 ms: each percentile within the histogram's three significant digits.
        let summary = ParallelSummary(location: SourceLocation(file: "t.scn", line: 1, column: 1), copies: 10, passed: 10,
                                      latencies: (1...1000).map { Duration.milliseconds($0) })
        func milliseconds(_ percentile: Double) -> Double { summary.latency(atPercentile: percentile)! / .microseconds(1) / 1000 }
        #expect(abs(milliseconds(50) - 500) <= 0.5)
        #expect(abs(milliseconds(90) - 900) <= 0.9)
        #expect(abs(milliseconds(99) - 990) <= 1)
        #expect(abs(milliseconds(99.9) - 999) <= 1)
        #expect(abs(milliseconds(100) - 1000) <= 1)
        #expect(summary.expects == 1000)
    }

    @Test func anAssertAfterABlockThatDidNotRunSaysSo() async throws {
        let result = try await ScenarioHarness.run("""
            repeat 0 {
              parallel 2 { sleep 1ms }
            }
            assert copies passed = 100%
            """)
        #expect(try #require(result.failure).reason as? ParallelFailure == .blockDidNotRun(block: "test.scn:2"))
    }

    @Test func anAssertJudgesTheLastBlockBeforeItInsideARepeat() async throws {
        let result = try await ScenarioHarness.run("""
            parallel 1 { sleep 1ms }
            repeat 2 {
              parallel 3 { sleep 1ms }
              assert copies passed = 3
            }
            assert copies passed = 3
            """)
        result.expectPassed()
    }
}
