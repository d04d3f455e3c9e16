/// `expect stdout|stderr NAME [eventually] line "TEXT"|/RE/|contains "TEXT"|any|eof [within D]`:
/// the next line a spawned subject writes to that stream (lines are taken in order, as `expect
/// line` takes a connection's), the first that matches after skipping others (`eventually`, for
/// a chatty log), or the stream's end with no line left.
package struct OutputExpectation: Sendable, Hashable {
    package enum Awaited: Sendable, Hashable {
        case line(LineMatch)
        case eventually(LineMatch)
        case eof
    }

    package var name: Name
    package var stream: SpawnStep.OutputStream
    package var awaited: Awaited
    package var within: Argument<Duration>?

    /// The line it waits for, with or without `eventually`; nil for `eof`.
    package var awaitedLine: LineMatch? {
        switch awaited {
        case .line(let match), .eventually(let match): return match
        case .eof: return nil
        }
    }

    package init(name: Name, stream: SpawnStep.OutputStream, awaited: Awaited, within: Argument<Duration>?) {
        self.name = name
        self.stream = stream
        self.awaited = awaited
        self.within = within
    }
}
