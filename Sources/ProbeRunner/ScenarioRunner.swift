import NIOCore
import NIOPosix
import ProbeScript

/// Runs scenarios and turns each into a `ScenarioResult`. It never prints.
public struct ScenarioRunner: Sendable {
    public let options: RunOptions
    private let group: EventLoopGroup

    public init(options: RunOptions = RunOptions(), group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.options = options
        self.group = group
    }

    public func run(_ scenario: Scenario) async -> ScenarioResult {
        let execution = ScenarioExecution(scenario: scenario, options: options, group: group)
        let outcome: ScenarioResult.Outcome
        do {
            try await execution.run()
            outcome = .passed
        } catch let failure as StepFailure {
            outcome = .failed(failure)
        } catch is CancellationError {
            outcome = .failed(StepFailure(.environment, at: SourceLocation(file: scenario.path, line: 1, column: 1),
                                          step: "", message: "interrupted"))
        } catch {
            outcome = .failed(StepFailure(.environment, at: SourceLocation(file: scenario.path, line: 1, column: 1),
                                          step: "", message: "unexpected error: \(error)"))
        }
        return ScenarioResult(path: scenario.path, title: scenario.title, outcome: outcome,
                              duration: execution.elapsed, log: execution.log, notes: execution.notes)
    }
}
