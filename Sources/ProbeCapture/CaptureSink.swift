import CPcap
#if canImport(Glibc)
import Glibc
#endif

/// Where one capture's packets go: its pcap file, and the ports whose packets are its own.
/// Written by the shared ring's reader, under the ring's lock (the ring is what threads share).
final class CaptureSink {
    let dumper: OpaquePointer
    var ports: Set<Int> = []
    /// The errno of the first write to the file that failed (a full disk), read as it failed:
    /// the stream keeps only an error flag.
    private(set) var writeError: Int32?

    init(dumper: OpaquePointer) {
        self.dumper = dumper
    }

    func write(_ header: UnsafePointer<pcap_pkthdr>, _ bytes: UnsafePointer<UInt8>) {
        pcap_dump(UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self), header, bytes)
        if writeError == nil, ferror(pcap_dump_file(dumper)) != 0 { writeError = errno }
    }

    /// Writes out what the file's buffer holds.
    func flush() {
        if pcap_dump_flush(dumper) != 0, writeError == nil { writeError = errno }
    }
}
