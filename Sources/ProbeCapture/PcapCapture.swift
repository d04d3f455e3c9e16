import CPcap
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A live libpcap capture of the scenario's own TCP ports, written to a pcap file.
///
/// Ready when `init` returns: filtered and dumping, so traffic may begin. It captures on the
/// process's shared ring (`SharedCaptureRing`), whose reader writes the packets of this
/// capture's ports to its file; `sync()` is a barrier that writes every packet seen so far.
/// The file is `path + ".part"` until `stop()` renames it, so an interrupted run never leaves
/// a truncated file under the final name.
/// Sendable: `finished` is read and written under the shared ring's lock, the decoders in
/// `decoded`'s Mutex; the rest are lets.
package final class PcapCapture: @unchecked Sendable {
    package let path: String
    package let partialPath: String
    package let interface: String

    let shared: SharedCaptureRing
    private let sink: CaptureSink
    /// The ring's counters when this capture began; `stats()` reports what happened since
    /// (the ring's drops while it ran make it incomplete, whoever's packets they were).
    private let baseline: CaptureStats
    /// Set once stopped; read and written under the shared ring's lock.
    private var finished = false
    /// What `segments` has decoded of the file so far, by payload prefix (checks of lengths
    /// and checks of content take turns), kept until the capture stops (at most the payload
    /// limit of payload, when checks read whole payloads).
    private let decoded = Mutex<[Int: PcapSegmentReader]>([:])

    /// Immediate mode gives each packet a ring slot of the snap length. An IP packet is at most
    /// 65535 bytes, so 65600 (with link headers) cuts nothing; 262144 left a quarter as many
    /// slots and dropped packets of a 256 MiB loopback transfer (BENCHMARKS.md 4).
    package static let fullSnapLength = 65_600
    /// The shortest snap length that keeps every header whole: link (with VLAN tags), IP with
    /// options and TCP with options fit in 160 bytes.
    package static let minimumSnapLength = 160
    /// The ring absorbs bursts while the reader thread waits for a core, and the capture hold
    /// keeps the run's own traffic from outrunning it (senders and readers wait above 4/5
    /// full). libpcap gives each whole-packet slot (65.7 KB) a 128 KiB block, so 32 MiB buys
    /// about 250 slots and maps about 64 MiB, once per process for every scenario running at
    /// once (`SharedCaptureRing`); before the hold, 256 MiB were needed to take a 256 MiB
    /// transfer without drops. With a short snap length a packet takes a few hundred bytes of
    /// ring, so 16 MiB holds more packets than 256 MiB of whole ones.
    package static func defaultBufferSize(snapLength: Int) -> Int {
        (snapLength < fullSnapLength ? 16 : 32) * 1024 * 1024
    }

    /// Starts dumping the traffic of the ports it will watch on `interface` to `path` (as
    /// `path.part` until stopped), on the process's ring of `bufferSize` bytes (by default as
    /// the snap length suits). A `snapLength` below the full one keeps only the start of each
    /// packet: headers and lengths, not whole payloads.
    package init(interface: String = "lo", path: String, bufferSize: Int? = nil,
                snapLength: Int = PcapCapture.fullSnapLength) throws {
        self.interface = interface
        self.path = path
        self.partialPath = path + ".part"
        let shared = try SharedCaptureRing.ring(interface: interface, bufferSize: bufferSize ?? Self.defaultBufferSize(snapLength: snapLength),
                                                snapLength: snapLength)
        // Only its owner may read it: a capture holds whole payloads, passwords among them.
        let descriptor = open(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0, let file = fdopen(descriptor, "w") else {
            let reason = errno == ENOSPC ? "the disk is full" : String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw CaptureError.failed("cannot write \(partialPath): \(reason)")
        }
        guard let dumper = pcap_dump_fopen(shared.ring.handle, file) else {
            fclose(file)
            throw CaptureError.failed("cannot write \(partialPath): \(String(cString: pcap_geterr(shared.ring.handle)))")
        }
        let sink = CaptureSink(dumper: dumper)
        do {
            try shared.locked { try shared.add(sink) }
        } catch {
            pcap_dump_close(dumper)
            throw error
        }
        self.shared = shared
        self.sink = sink
        baseline = shared.ring.counters()
        CaptureRegistry.shared.add(self)
    }

    /// Where the file goes when the run is interrupted: `x.pcap` becomes `x.interrupted.pcap`.
    package var interruptedPath: String {
        (path.hasSuffix(".pcap") ? String(path.dropLast(5)) : path) + ".interrupted.pcap"
    }

    /// Keeps the packets of `port` from now on; call before traffic on that port starts.
    package func watch(port: Int) throws {
        try shared.locked {
            guard !finished else { return }
            try shared.watch(port, for: sink)
        }
    }

    /// The connection between `probePort` and `peerPort` is this capture's own.
    package func claim(probePort: Int, peerPort: Int) {
        shared.locked {
            guard !finished else { return }
            shared.claim(probePort, peerPort, for: sink)
        }
    }

    /// About what share of the ring's slots holds packets the reader has yet to write (0 to 1).
    /// Does not wait for the reader, so a sender can ask while the reader is stuck in a write.
    package func ringFill() -> Double {
        Double(shared.ring.backlog()) / Double(shared.ring.capacity)
    }

    /// A barrier: every packet captured so far is in the file when it returns.
    package func sync() {
        shared.locked {
            guard !finished else { return }
            _ = shared.drain()
            sink.flush()
        }
    }

    package func stats() -> CaptureStats {
        shared.locked { readStats() }
    }

    /// Under the shared ring's lock.
    private func readStats() -> CaptureStats {
        guard !finished else { return .empty }
        var stats = shared.ring.counters().since(baseline)
        stats.writeFailure = sink.writeError.map { $0 == ENOSPC ? "the disk is full" : String(cString: strerror($0)) }
        return stats
    }

    /// The TCP segments written so far (call `sync()` first to include the latest), each with
    /// at most `payloadPrefix` bytes of its payload. Only what was written since the last call
    /// with the same prefix is decoded.
    package func segments(payloadPrefix: Int = .max) throws -> [TCPSegment] {
        let file = shared.locked { finished ? path : partialPath }
        // A lock of its own: decoding a large capture must not hold up the ring's reader.
        return try decoded.withLock { decoded in
            // Taken out to read: without the segments array's second owner, it grows in place.
            var reader = decoded.removeValue(forKey: payloadPrefix).flatMap { $0.path == file ? $0 : nil }
                ?? PcapSegmentReader(path: file, payloadPrefix: payloadPrefix)
            try reader.read(allowTruncatedTail: true)
            decoded[payloadPrefix] = reader
            return reader.segments
        }
    }

    /// Stops: drains what is left, reads the counters, flushes and closes the file under its final name.
    @discardableResult
    package func stop() -> CaptureStats {
        stop(interrupted: false)
    }

    /// Stops; an interrupted capture is kept as `interruptedPath`.
    @discardableResult
    package func stop(interrupted: Bool) -> CaptureStats {
        if shared.locked({ finished }) { return .empty }
        CaptureRegistry.shared.remove(self)
        decoded.withLock { $0 = [:] }
        return shared.locked {
            guard !finished else { return .empty } // stopped meanwhile (an interruption)
            shared.remove(sink)
            sink.flush()
            let stats = readStats()
            pcap_dump_close(sink.dumper)
            finished = true
            _ = rename(partialPath, interrupted ? interruptedPath : path)
            return stats
        }
    }

    deinit {
        stop()
    }
}
