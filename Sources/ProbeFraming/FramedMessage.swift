/// What a framing took from the stream.
package enum FramedMessage: Equatable, Sendable {
    /// A whole message, its framing removed.
    case message([UInt8])
    /// No message can come: the framing was broken, or the stream ended.
    case failure(String)
}
