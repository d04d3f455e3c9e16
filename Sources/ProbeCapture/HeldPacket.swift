import CPcap
#if canImport(Glibc)
import Glibc
#endif

/// A captured packet copied out of the ring, held until a capture claims its connection.
struct HeldPacket {
    let header: pcap_pkthdr
    let bytes: [UInt8]
    /// When it was held, to give way oldest first.
    let arrival = ContinuousClock.now

    func write(to sink: CaptureSink) {
        var header = header
        bytes.withUnsafeBufferPointer { sink.write(&header, $0.baseAddress!) }
    }
}
