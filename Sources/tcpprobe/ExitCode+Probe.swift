import ArgumentParser

/// The exit codes of the scenario language contract.
extension ExitCode {
    /// At least one scenario failed.
    static let scenarioFailed = ExitCode(1)
    /// Usage error or invalid scenario file.
    static let invalidInput = ExitCode(2)
    /// Cannot spawn, bind, or capture.
    static let environmentError = ExitCode(3)
}
