import Testing

/// How a test or suite uses the machine when `swift test` runs tests in parallel: `.timed`
/// ones (pacing, timeouts, memory growth) run while no `.heavy` one (many processes, large
/// transfers, a browser) does, so a busy machine cannot make their measurements fail; an
/// `.alone` one runs while no other of any kind does. On a suite, the suite holds its share
/// while its tests run.
public struct MachineShare: SuiteTrait, TestTrait, TestScoping {
    let exclusive: Bool

    public var isRecursive: Bool { false }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await MachineGate.shared.enter(exclusive: exclusive)
        do {
            try await function()
        } catch {
            await MachineGate.shared.leave(exclusive: exclusive)
            throw error
        }
        await MachineGate.shared.leave(exclusive: exclusive)
    }
}

extension Trait where Self == MachineShare {
    /// Measures time or memory: runs while no heavy test does.
    public static var timed: Self { MachineShare(exclusive: true) }
    /// Loads the machine: runs beside other heavy tests, never beside a timed one.
    public static var heavy: Self { MachineShare(exclusive: false) }
    /// Needs what the test process shares to itself (its descriptor limit, its capture ring and
    /// the ring's counters) and loads the machine: runs while no heavy or timed test does.
    public static var alone: Self { MachineShare(exclusive: true) }
}
