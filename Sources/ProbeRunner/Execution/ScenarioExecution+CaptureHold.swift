import ProbeScript

/// Writes held back while the run's capture catches up (see `CaptureHold`).
extension ScenarioExecution {
    /// Before a write on a captured run: while the capture's buffer is over
    /// `CaptureHold.holdAbove` full, waits until it is under `CaptureHold.resumeBelow` or
    /// `limit` has passed (the capture may then drop packets, and says so). Returns how long
    /// it waited.
    func waitForCapture(upTo limit: Duration, _ statement: Statement) async throws -> Duration {
        guard let captureHold = wire.hold, captureHold.mustHold else { return .zero }
        let began = clock.now
        repeat {
            try await sleep(for: CaptureHold.recheck, statement)
        } while !captureHold.mayResume && clock.now - began < limit
        let held = clock.now - began
        captureHold.heldSending(for: held)
        return held
    }
}
