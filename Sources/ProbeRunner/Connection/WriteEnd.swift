/// What a `TimedWrite` tells its end: true once written, false when its timeout passed first
/// (the peer is not reading), or the write's error; once, on the channel's loop.
protocol WriteEnd: Sendable {
    func written(_ result: Result<Bool, Error>)
}
