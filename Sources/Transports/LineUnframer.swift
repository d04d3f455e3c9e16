/// Turns a TCP byte stream back into lines, whatever the reads' sizes.
public protocol LineUnframer: Sendable {
    /// The complete lines `bytes` finishes; throws when a line grows past the limit.
    mutating func append(_ bytes: some Collection<UInt8>) throws -> [String]
    /// At the end of the stream: lines still buffered (a correct framer has none to give).
    mutating func finish() -> [String]
}
