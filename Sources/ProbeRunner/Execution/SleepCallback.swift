import NIOCore

/// A `sleep`'s end, scheduled on the run's loop as a callback that tells the step's `done`:
/// no promise, future or closure of its own (a sleeping `parallel` copy held about 220 bytes
/// for them; this fits in the loop's scheduled task).
struct SleepCallback: NIOScheduledCallbackHandler, Sendable {
    let done: StepDone
    /// What the sleep ends with: nil, or the deadline that cut it short.
    let failure: (any Error)?

    func handleScheduledCallback(eventLoop: some EventLoop) {
        done(failure)
    }

    func didCancelScheduledCallback(eventLoop: some EventLoop) {
        done(EventLoopError.shutdown)
    }
}
