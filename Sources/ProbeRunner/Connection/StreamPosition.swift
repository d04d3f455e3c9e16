/// How far a connection's two byte streams had got at some step, in the bytes the scenario
/// sees (plaintext over TLS): what the probe had sent, and what its expects had consumed.
struct StreamPosition: Sendable, Equatable {
    var sent = 0
    var received = 0

    /// The offset in one direction: the peer's (`received`) or the probe's (`sent`).
    func offset(fromPeer: Bool) -> Int { fromPeer ? received : sent }
}
