/// What a `TimedWrite` tells its end: true once written, false when its timeout passed first
/// (the peer is not reading), or the write's error; once, on the channel's loop. `write` is the
/// object that holds the end, for what must outlive the call (a log entry).
protocol WriteEnd: Sendable {
    func written(_ result: Result<Bool, Error>, by write: TimedWrite<Self>)
}
