/// What a wire check counts lines across: TCP segments, or over TLS the records that carry
/// the decrypted stream.
public enum WireUnit: String, Sendable {
    case segment
    case record = "TLS record"

    /// "1 segment", "3 TLS records".
    public func count(_ number: Int) -> String {
        number == 1 ? "1 \(rawValue)" : "\(number) \(rawValue)s"
    }

    public var plural: String { rawValue + "s" }
}
