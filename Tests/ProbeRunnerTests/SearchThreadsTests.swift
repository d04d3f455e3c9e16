import Foundation
import NIOConcurrencyHelpers
@testable import ProbeRunner
import Testing

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

    /// Waits, 5 ms at a time and at most 10 s, for `condition`.
    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<2000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
        #expect(condition(), "not within 10 s")
    }
}
