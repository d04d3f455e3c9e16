/// A write's end told to a closure, for the writes no step waits on in place.
struct WrittenCallback: WriteEnd {
    let call: @Sendable (Result<Bool, Error>) -> Void

    func written(_ result: Result<Bool, Error>, by write: TimedWrite<Self>) {
        call(result)
    }
}
