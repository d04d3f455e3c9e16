/// `expect stdout|stderr NAME line "TEXT"|/RE/|contains "TEXT"|any [within D]`: the next line a
/// spawned subject writes to that stream (lines are taken in order, as `expect line` takes a
/// connection's).
public struct OutputExpectation: Sendable, Hashable {
    public var name: Name
    public var stream: SpawnStep.OutputStream
    public var match: LineMatch
    public var within: Argument<Duration>?

    public init(name: Name, stream: SpawnStep.OutputStream, match: LineMatch, within: Argument<Duration>?) {
        self.name = name
        self.stream = stream
        self.match = match
        self.within = within
    }
}
