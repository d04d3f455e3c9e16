import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// A whole conformance suite against a real peer: a step of `.ci/run` of its own
    /// (TCPPROBE_SUITES=1), which the 5-minute budget of the test run has no room for.
    public static var wholeSuite: Self {
        .enabled(if: ProcessInfo.processInfo.environment["TCPPROBE_SUITES"] == "1", "a whole suite: TCPPROBE_SUITES=1, a step of .ci/run")
    }
}
