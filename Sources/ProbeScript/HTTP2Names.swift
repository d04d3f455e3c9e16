/// HTTP/2's names as the language writes them (RFC 9113 §6, §7, §6.5.2): frame types, flags,
/// error codes and SETTINGS parameters, each by name or by number.
package enum HTTP2Names {
    /// The frame types of RFC 9113 §6, by their names in the language.
    package static let frameTypes: [(name: String, type: UInt8)] = [
        ("data", 0x0), ("headers", 0x1), ("priority", 0x2), ("rst-stream", 0x3), ("settings", 0x4),
        ("push-promise", 0x5), ("ping", 0x6), ("goaway", 0x7), ("window-update", 0x8), ("continuation", 0x9),
    ]

    /// The type's name (`HEADERS`, as RFC 9113 writes it), or `type 0x0b` for one it does not define.
    package static func typeName(_ type: UInt8) -> String {
        frameTypes.first { $0.type == type }.map { $0.name.uppercased().replacingDashes() } ?? "type 0x" + hex(type)
    }

    /// The flags a type defines: END_STREAM, ACK, END_HEADERS, PADDED, PRIORITY.
    package static func flags(of type: UInt8) -> [(name: String, bit: UInt8)] {
        switch type {
        case 0x0: return [("end-stream", 0x1), ("padded", 0x8)]
        case 0x1: return [("end-stream", 0x1), ("end-headers", 0x4), ("padded", 0x8), ("priority", 0x20)]
        case 0x4, 0x6: return [("ack", 0x1)]
        case 0x5: return [("end-headers", 0x4), ("padded", 0x8)]
        case 0x9: return [("end-headers", 0x4)]
        default: return []
        }
    }

    /// `END_STREAM|END_HEADERS` for the flags set, any bit the type does not name in hex.
    package static func flagNames(_ bits: UInt8, of type: UInt8) -> String {
        var names: [String] = []
        var rest = bits
        for flag in flags(of: type) where bits & flag.bit != 0 {
            names.append(flag.name.uppercased().replacingDashes())
            rest &= ~flag.bit
        }
        if rest != 0 { names.append("flags 0x" + hex(rest)) }
        return names.joined(separator: " ")
    }

    /// RFC 9113 §7's error codes.
    package static let errorCodes: [(name: String, code: Int)] = [
        ("NO_ERROR", 0x0), ("PROTOCOL_ERROR", 0x1), ("INTERNAL_ERROR", 0x2), ("FLOW_CONTROL_ERROR", 0x3),
        ("SETTINGS_TIMEOUT", 0x4), ("STREAM_CLOSED", 0x5), ("FRAME_SIZE_ERROR", 0x6), ("REFUSED_STREAM", 0x7),
        ("CANCEL", 0x8), ("COMPRESSION_ERROR", 0x9), ("CONNECT_ERROR", 0xa), ("ENHANCE_YOUR_CALM", 0xb),
        ("INADEQUATE_SECURITY", 0xc), ("HTTP_1_1_REQUIRED", 0xd),
    ]

    /// An error code written by name (`PROTOCOL_ERROR`, `protocol-error`, `cancel`) or number.
    package static func errorCode(_ text: String) -> Int? {
        if let number = number(text) { return number }
        let name = text.uppercased().replacingDashes()
        return errorCodes.first { $0.name == name }?.code
    }

    /// `PROTOCOL_ERROR`, or the number in hex for a code RFC 9113 does not define.
    package static func errorName(_ code: Int) -> String {
        errorCodes.first { $0.code == code }?.name ?? "0x" + String(code, radix: 16)
    }

    /// The SETTINGS parameters of RFC 9113 §6.5.2 and RFC 8441.
    package static let settings: [(name: String, id: Int)] = [
        ("header-table-size", 0x1), ("enable-push", 0x2), ("max-concurrent-streams", 0x3),
        ("initial-window-size", 0x4), ("max-frame-size", 0x5), ("max-header-list-size", 0x6),
        ("enable-connect-protocol", 0x8),
    ]

    /// The parameters' initial values (RFC 9113 §6.5.2), which hold until a SETTINGS changes
    /// them; MAX_CONCURRENT_STREAMS and MAX_HEADER_LIST_SIZE have none (unlimited).
    package static let initialValues: [Int: UInt32] = [0x1: 4096, 0x2: 1, 0x4: 65535, 0x5: 16384, 0x8: 0]

    /// A parameter by name or number (`initial-window-size`, `0x4`).
    package static func setting(_ text: String) -> Int? {
        number(text) ?? settings.first { $0.name == text }?.id
    }

    /// `SETTINGS_INITIAL_WINDOW_SIZE`, or the number for one not defined.
    package static func settingName(_ id: Int) -> String {
        settings.first { $0.id == id }.map { "SETTINGS_" + $0.name.uppercased().replacingDashes() } ?? "0x" + String(id, radix: 16)
    }

    /// A whole number written in decimal or, after `0x`, in hex.
    package static func number(_ text: String) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            let digits = text.dropFirst(2)
            guard !digits.isEmpty, digits.count <= 16 else { return nil }
            return Int(digits, radix: 16)
        }
        return Quantity.integer(text)
    }

    private static func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }
}

private extension String {
    func replacingDashes() -> String { String(map { $0 == "-" ? "_" : $0 }) }
}
