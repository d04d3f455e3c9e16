import ProbeScript

/// What a wire check counts lines across: TCP segments, or over TLS the records that carry
/// the decrypted stream.
package enum WireUnit: String, Sendable {
    case segment
    case record = "TLS record"

    /// "1 segment", "3 TLS records".
    package func count(_ number: Int) -> String {
        number.counted(rawValue)
    }

    package var plural: String { rawValue + "s" }
}
