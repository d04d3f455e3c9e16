import NIOHPACK
import Synchronization

/// The header table size a connection's peer announced last (SETTINGS_HEADER_TABLE_SIZE):
/// written on the connection's event loop as the peer's SETTINGS come, read wherever the
/// probe encodes a header block. HPACK's 4,096 until the peer says otherwise.
final class HTTP2AnnouncedTableSize: Sendable {
    private let size = Atomic<Int>(HPACKEncoder.defaultDynamicTableSize)

    /// The last size announced.
    var value: Int { size.load(ordering: .acquiring) }

    /// The peer announced `newSize`.
    func announce(_ newSize: Int) {
        size.store(newSize, ordering: .releasing)
    }
}
