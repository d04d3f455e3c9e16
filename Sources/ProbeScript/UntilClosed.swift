/// `until closed [within D]` on a send: drip until the peer closes, which passes the step when
/// it comes within D of the step's start (the step timeout when `within` is nil).
package struct UntilClosed: Sendable, Hashable {
    package var within: Argument<Duration>?

    package init(within: Argument<Duration>? = nil) {
        self.within = within
    }
}
