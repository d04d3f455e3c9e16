/// `on …`: a connection's background rule, acting while the scenario goes on.
package enum OnRule: Sendable, Hashable {
    /// `on line MATCH [send …]` or `on message [head H] FORM [send …]`: the lines or messages
    /// it consumes (read as the expect of the same words would read them), and its answer.
    case reading(Expectation, answer: SendStep?)
    /// `on every D send …`: a heartbeat of the probe's own.
    case every(Argument<Duration>, send: SendStep)
    /// `on off`: the connection's rules end.
    case off
}
