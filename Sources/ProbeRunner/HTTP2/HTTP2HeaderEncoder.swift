import NIOCore
import NIOHPACK

/// A connection's HPACK encoding of the probe's header fields, by NIOHPACK, byte for byte as
/// h2spec's (Go's) encoder writes them: a field the tables hold whole is an index; any other
/// is a literal entered into the dynamic table, unless it is larger than the table; each
/// string is Huffman-coded only when that is shorter. Servers have answered the two codings of
/// one field differently (h2o a name in capitals: a 400 when Huffman-coded, GOAWAY when not).
///
/// NIOHPACK codes every string of an encoder one way, so the connection's encoder writes them
/// as they are and keeps the table; each string is then put in the shorter of the two forms
/// NIOHPACK writes for it. A literal is its first byte or two (the representation and the
/// name's index, or 0x40 / 0x00 and a name string), then the value string.
///
/// A peer that announces a SETTINGS_HEADER_TABLE_SIZE under the table's size, in its
/// handshake or later, gets a table of that size, signalled by a size update at the start of
/// the next block, as RFC 7541 §4.2 requires (h2spec keeps 4,096 whatever the peer says). A
/// larger size announced later leaves the table as it is, as Go's HTTP/2 transport leaves it.
struct HTTP2HeaderEncoder {
    private var table: HPACKEncoder
    /// What the peer announced last, followed at the start of each block.
    private let announced: HTTP2AnnouncedTableSize
    /// The table's size is still to be signalled, at the start of the next block.
    private var signalSize: Bool
    /// Write a string alone, each in one form (behind a one-byte prefix that is dropped).
    private var huffmanStrings = HPACKEncoder(allocator: ByteBufferAllocator(), useHuffmanEncoding: true, maxDynamicTableSize: 0)
    private var plainStrings = HPACKEncoder(allocator: ByteBufferAllocator(), useHuffmanEncoding: false, maxDynamicTableSize: 0)

    /// An encoder with HPACK's table of 4,096 bytes, which follows what `announced` says.
    init(following announced: HTTP2AnnouncedTableSize = HTTP2AnnouncedTableSize()) {
        self.announced = announced
        table = HPACKEncoder(allocator: ByteBufferAllocator(), useHuffmanEncoding: false, maxDynamicTableSize: HPACKEncoder.defaultDynamicTableSize)
        signalSize = false
    }

    /// Starts the table again empty, `size` bytes large; `signalled`: whether the peer knows
    /// the size already (else the next block begins by saying so). The peer's table keeps
    /// older entries the new one does not know; none is referred to, and they go first.
    mutating func restart(tableSize size: Int, signalled: Bool) {
        table = HPACKEncoder(allocator: ByteBufferAllocator(), useHuffmanEncoding: false, maxDynamicTableSize: size)
        signalSize = !signalled
    }

    /// A dynamic table size update to `size`, as NIOHPACK's encoder begins a block after a
    /// resize: an encoder allowed one more, resized down to `size`.
    static func sizeUpdate(to size: Int) throws -> [UInt8] {
        var encoder = HPACKEncoder(allocator: ByteBufferAllocator(), maxDynamicTableSize: size + 1)
        try encoder.setDynamicTableSize(size)
        try encoder.beginEncoding(allocator: ByteBufferAllocator())
        return Array(try encoder.endEncoding().readableBytesView)
    }

    /// The size of the dynamic table the encoding keeps.
    var tableSize: Int { table.allowedDynamicTableSize }

    /// The header block of `fields`, in order; the table keeps what the peer's will.
    mutating func encode(_ fields: [(name: String, value: String)]) throws -> [UInt8] {
        if announced.value < tableSize { restart(tableSize: announced.value, signalled: false) }
        var block = signalSize ? try Self.sizeUpdate(to: tableSize) : []
        signalSize = false
        for (name, value) in fields {
            let field: [UInt8]
            if 32 + name.utf8.count + value.utf8.count <= tableSize {
                field = try Self.write(with: &table) { try $0.append(header: name, value: value) }
            } else {
                // Too large for the table (so no entry of it holds the field whole): an index when
                // the static table holds it whole, as with Go's, else a literal left out of the
                // table. The string encoders' tables are empty, so theirs says which.
                let asStatic = try Self.write(with: &plainStrings) { try $0.append(header: name, value: value) }
                field = asStatic[0] & 0x80 != 0 ? asStatic : try Self.write(with: &table) { try $0.appendNonIndexed(header: name, value: value) }
            }
            // An index (its first bit set) has no strings.
            guard field[0] & 0x80 == 0 else {
                block += field
                continue
            }
            let newName = field[0] == 0x40 || field[0] == 0x00
            let (plainName, plainValue) = (try string(name, huffman: false), try string(value, huffman: false))
            block += field.prefix(field.count - (newName ? plainName.count : 0) - plainValue.count)
            if newName { block += try shorter(plainName, name) }
            block += try shorter(plainValue, value)
        }
        return block
    }

    /// The Huffman-coded form of `text` when it is shorter than `plain`, else `plain`.
    private mutating func shorter(_ plain: [UInt8], _ text: String) throws -> [UInt8] {
        let coded = try string(text, huffman: true)
        return coded.count < plain.count ? coded : plain
    }

    /// `text` as an HPACK string: its length, then its bytes, Huffman-coded or not.
    private mutating func string(_ text: String, huffman: Bool) throws -> [UInt8] {
        // A literal without indexing of static name 1 (`:authority`): the byte 0x01, then the string.
        let literal = { (encoder: inout HPACKEncoder) in try encoder.appendNonIndexed(header: ":authority", value: text) }
        let field = huffman ? try Self.write(with: &huffmanStrings, literal) : try Self.write(with: &plainStrings, literal)
        return Array(field.dropFirst())
    }

    /// What `append` writes with `encoder`, as a block of its own.
    private static func write(with encoder: inout HPACKEncoder, _ append: (inout HPACKEncoder) throws -> Void) throws -> [UInt8] {
        try encoder.beginEncoding(allocator: ByteBufferAllocator())
        try append(&encoder)
        return Array(try encoder.endEncoding().readableBytesView)
    }
}
