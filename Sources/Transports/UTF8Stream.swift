/// Checks that bytes arriving in pieces are UTF-8, piece by piece, so a message's fragments
/// can be refused at the first byte that no UTF-8 text can hold, not when the message ends
/// (RFC 6455 §8.1: "fail fast"). A character may be cut between two pieces.
struct UTF8Stream {
    /// The start of a character the last piece cut off: at most 3 bytes.
    private var pending: [UInt8] = []

    /// Takes the next piece: false once the bytes so far cannot begin any UTF-8 text.
    mutating func take(_ piece: some Collection<UInt8>) -> Bool {
        let bytes = pending + piece
        let cut = Self.incompleteTail(of: bytes)
        guard String(validating: bytes[..<cut], as: UTF8.self) != nil, Self.canBegin(bytes[cut...]) else { return false }
        pending = Array(bytes[cut...])
        return true
    }

    /// True when the text ends here whole: no character is left cut off.
    var isComplete: Bool { pending.isEmpty }

    /// Where a last character that needs more bytes than came begins (`bytes.endIndex` when
    /// the bytes end on a character's end, or with a byte no character begins with).
    private static func incompleteTail(of bytes: [UInt8]) -> Int {
        for start in stride(from: bytes.count - 1, through: max(0, bytes.count - 3), by: -1) {
            let byte = bytes[start]
            guard byte & 0xC0 == 0x80 else {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return bytes.count - start < length ? start : bytes.count
            }
        }
        return bytes.count
    }

    /// True when `tail`, the start of one character, can be completed: some continuation bytes
    /// after it make a valid character. 0x80, 0x90 and 0xA0 cover every lead's range for its
    /// second byte (E0 needs A0-BF, ED 80-9F, F0 90-BF, F4 80-8F); later bytes take any of them.
    private static func canBegin(_ tail: ArraySlice<UInt8>) -> Bool {
        guard let lead = tail.first else { return true }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        return [0x80, 0xA0, 0x90].contains { (filler: UInt8) in
            String(validating: Array(tail) + Array(repeating: filler, count: length - tail.count), as: UTF8.self) != nil
        }
    }
}
