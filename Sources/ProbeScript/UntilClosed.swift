/// `until closed [within D]` on a send: drip until the peer closes, which passes the step when
/// it comes within D of the step's start (the step timeout when `within` is nil).
public struct UntilClosed: Sendable, Hashable {
    public var within: Argument<Duration>?

    public init(within: Argument<Duration>? = nil) {
        self.within = within
    }
}
