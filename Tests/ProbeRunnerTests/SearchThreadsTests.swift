import Foundation
import NIOConcurrencyHelpers
@testable import ProbeRunner
import Testing
import TestSupport

/// The threads regex searches run on: at most `limit` at once, the rest waiting their turn,
/// and a thread that is done takes the next work.
@Suite struct SearchThreadsTests {
    @Test func workBeyondTheLimitWaitsForAThread() async throws {
        let threads = SearchThreads(limit: 2)
        let started = NIOLockedValueBox<[Int]>([])
        let gates = (0..<2).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<2 {
            threads.run {
                started.withLockedValue { $0.append(index) }
                gates[index].wait()
            }
        }
        threads.run { started.withLockedValue { $0.append(2) } }
        try await waitUntil { started.withLockedValue { $0.count } >= 2 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(started.withLockedValue { $0.sorted() } == [0, 1], "work ran past the limit of 2 threads")

        gates[0].signal()
        try await waitUntil { started.withLockedValue { $0.count } == 3 }
        #expect(started.withLockedValue { $0.last } == 2)

        // The threads that are free take new work: all of it runs.
        gates[1].signal()
        for index in 3..<10 { threads.run { started.withLockedValue { $0.append(index) } } }
        try await waitUntil { started.withLockedValue { $0.count } == 10 }
        #expect(started.withLockedValue { Set($0) } == Set(0..<10))
    }

    /// A result waited for comes back from the thread; one that takes longer than the wait is
    /// nil at the end of the wait, and its work still runs to its end.
    @Test(.timed) func aResultIsWaitedForAsLongAsTheLimitSays() async throws {
        let threads = SearchThreads(limit: 2)
        #expect(await threads.result(of: { 6 * 7 }, within: .seconds(10)) == 42)
        let gate = DispatchSemaphore(value: 0)
        let finished = NIOLockedValueBox(false)
        let clock = ContinuousClock()
        let started = clock.now
        let late = await threads.result(of: { () -> Int in
            gate.wait()
            finished.withLockedValue { $0 = true }
            return 1
        }, within: .milliseconds(50))
        #expect(late == nil)
        #expect(clock.now - started < .seconds(5), "the wait ended at its limit, not with the work")
        gate.signal()
        try await waitUntil { finished.withLockedValue { $0 } }
    }

    /// Waits, 5 ms at a time and at most 10 s, for `condition`.
    private func waitUntil(_ condition: () -> Bool) async throws {
        #expect(await Eventually.holds(every: .milliseconds(5), condition), "not within 10 s")
    }
}
