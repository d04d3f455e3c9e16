/// The two ports of a TCP connection on loopback, in either order: how the shared capture
/// ring tells one scenario's connection from another's on the same server port.
struct PortPair: Hashable {
    let low: Int
    let high: Int

    init(_ one: Int, _ other: Int) {
        (low, high) = one < other ? (one, other) : (other, one)
    }
}
