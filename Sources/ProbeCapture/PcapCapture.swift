import CPcap
import FoundationEssentials
import NIOConcurrencyHelpers
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// A live libpcap capture of the scenario's own TCP ports, written to a pcap file.
///
/// Ready when `start` returns: activated, filtered and dumping, so traffic may begin.
/// A reader thread keeps the kernel ring drained; `sync()` is a barrier that writes every
/// packet seen so far to the file. The file is `path + ".part"` until `stop()` renames it,
/// so an interrupted run never leaves a truncated file under the final name.
public final class PcapCapture: @unchecked Sendable {
    public let path: String
    public let partialPath: String
    public let interface: String

    private let ring: CaptureRing
    private var handle: OpaquePointer { ring.handle }
    private let dumper: OpaquePointer
    /// The ring's counters when this capture began; `stats()` reports what happened since.
    private let baseline: CaptureStats
    private let lock = NIOLock()
    private var ports: Set<Int> = []
    private let stopPipe: [Int32]
    /// The reader's own thread; shutting it down waits for the reader to finish.
    private let reader = NIOThreadPool(numberOfThreads: 1)
    private var finished = false
    /// Why writing the pcap file failed, once it has (see `flush`).
    private var writeFailure: String?
    /// What `segments` has decoded of the file so far, by payload prefix (checks of lengths
    /// and checks of content take turns), kept until the capture stops (at most the payload
    /// limit of payload, when checks read whole payloads).
    private var decoded: [Int: PcapSegmentReader] = [:]
    private let decodedLock = NIOLock()

    /// Immediate mode gives each packet a ring slot of the snap length. An IP packet is at most
    /// 65535 bytes, so 65600 (with link headers) cuts nothing; 262144 left a quarter as many
    /// slots and dropped 719 packets of a 256 MiB loopback transfer.
    public static let fullSnapLength = 65_600
    /// The shortest snap length that keeps every header whole: link (with VLAN tags), IP with
    /// options and TCP with options fit in 160 bytes.
    public static let minimumSnapLength = 160
    /// The ring absorbs bursts while the reader thread waits for a core. On 2 cores, with the
    /// reader at nice -15, a 256 MiB loopback transfer dropped 145 to 1269 packets with 128 MiB
    /// and none with 256 MiB. libpcap gives each whole-packet slot (65.7 KB) a 128 KiB block, so
    /// 256 MiB buys about 4,000 slots and maps about 512 MiB. It sets up in about 70 ms (about
    /// 1 s on a cold first run), once per process: rings are reused (`CaptureRingPool`). With a
    /// short snap length a packet takes a few hundred bytes of ring, so 16 MiB holds more
    /// packets than 256 MiB of whole ones, and sets up in milliseconds.
    public static func defaultBufferSize(snapLength: Int) -> Int {
        (snapLength < fullSnapLength ? 16 : 256) * 1024 * 1024
    }

    /// Starts dumping `interface` to `path` (as `path.part` until stopped), on an idle ring of
    /// `bufferSize` bytes (by default as the snap length suits) when the process has one, else
    /// on a new one. A `snapLength` below the full one keeps only the start of each packet:
    /// headers and lengths, not whole payloads.
    public init(interface: String = "lo", path: String, bufferSize: Int? = nil,
                snapLength: Int = PcapCapture.fullSnapLength) throws {
        self.interface = interface
        self.path = path
        self.partialPath = path + ".part"
        // Every failure comes before the last property is set, so a failed start leaves nothing to stop.
        var stopPipe: [Int32] = [-1, -1]
        guard pipe(&stopPipe) == 0 else { throw CaptureError.failed("cannot create the capture's stop pipe") }
        func fail(_ ring: CaptureRing?, _ error: Error) -> Error {
            stopPipe.forEach { close($0) }
            if let ring { CaptureRingPool.shared.giveBack(ring) }
            return error
        }
        let ring: CaptureRing
        do {
            ring = try CaptureRingPool.shared.take(interface: interface, bufferSize: bufferSize ?? Self.defaultBufferSize(snapLength: snapLength),
                                                   snapLength: snapLength)
        } catch {
            throw fail(nil, error)
        }
        // Only its owner may read it: a capture holds whole payloads, passwords among them.
        let descriptor = open(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0, let file = fdopen(descriptor, "w") else {
            let reason = errno == ENOSPC ? "the disk is full" : String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw fail(ring, CaptureError.failed("cannot write \(partialPath): \(reason)"))
        }
        guard let dumper = pcap_dump_fopen(ring.handle, file) else {
            fclose(file)
            throw fail(ring, CaptureError.failed("cannot write \(partialPath): \(String(cString: pcap_geterr(ring.handle)))"))
        }
        self.stopPipe = stopPipe
        self.ring = ring
        self.baseline = ring.counters()
        self.dumper = dumper
        reader.start()
        reader.submit { [unowned self] _ in self.readLoop() }
        CaptureRegistry.shared.add(self)
    }

    /// Where the file goes when the run is interrupted: `x.pcap` becomes `x.interrupted.pcap`.
    public var interruptedPath: String {
        (path.hasSuffix(".pcap") ? String(path.dropLast(5)) : path) + ".interrupted.pcap"
    }

    /// Adds `port` to the filter; call before traffic on that port starts.
    public func watch(port: Int) throws {
        try lock.withLock {
            guard !finished, !ports.contains(port) else { return }
            ports.insert(port)
            try ring.setFilter(ports: ports)
        }
    }

    /// While packets flow the reader drains the ring on a clock instead of sleeping in `poll`
    /// on the capture socket: a sleeping reader has to be woken for every packet, which costs
    /// the sending core an interrupt-disabled wake-up (an IPI on a VM) per packet. After
    /// `quietTicks` empty drains in a row it goes back to `poll`, so an idle capture costs nothing.
    private static let tickMilliseconds: Int32 = 1
    private static let quietTicks = 10

    private func readLoop() {
        // The reader must win the CPU against the traffic it records, or the ring overflows.
        // Raising priority needs CAP_SYS_NICE; without it the thread keeps the default.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -15) // on Linux: this thread only
        let captureDescriptor = pcap_get_selectable_fd(handle)
        var descriptors = [pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
                           pollfd(fd: captureDescriptor, events: Int16(POLLIN), revents: 0)]
        var emptyDrains = Self.quietTicks
        while true {
            if emptyDrains < Self.quietTicks {
                _ = poll(&descriptors, 1, Self.tickMilliseconds) // the stop pipe only: packets wake no one
            } else {
                _ = poll(&descriptors, 2, 50)
            }
            if descriptors[0].revents != 0 { break }
            let drained = lock.withLock {
                let count = drain()
                noteWriteFailure()
                return count
            }
            emptyDrains = drained > 0 ? 0 : min(emptyDrains + 1, Self.quietTicks)
        }
    }

    /// Writes every packet waiting in the kernel ring to the file (lock held).
    private func drain() -> Int {
        ring.drain(pcap_dump, UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self))
    }

    /// About what share of the ring's slots holds packets the reader has yet to write (0 to 1).
    /// Does not wait for the reader, so a sender can ask while the reader is stuck in a write.
    public func ringFill() -> Double {
        Double(ring.backlog()) / Double(ring.capacity)
    }

    /// A barrier: every packet captured so far is in the file when it returns.
    public func sync() {
        lock.withLock {
            guard !finished else { return }
            _ = drain()
            flush()
        }
    }

    /// Writes out what the file's buffer holds. Under `lock`.
    private func flush() {
        let flushed = pcap_dump_flush(dumper) == 0
        noteWriteFailure(flushed ? nil : errno)
    }

    /// After packets were written (or flushed): a write that failed, for a full disk say, makes
    /// the capture incomplete, since wire checks read the file. Its errno is read at once, the
    /// stream's error flag being all that stays. Under `lock`.
    private func noteWriteFailure(_ flushError: Int32? = nil) {
        let code = flushError ?? errno
        guard writeFailure == nil, flushError != nil || ferror(pcap_dump_file(dumper)) != 0 else { return }
        writeFailure = code == ENOSPC ? "the disk is full" : String(cString: strerror(code))
    }

    public func stats() -> CaptureStats {
        lock.withLock { readStats() }
    }

    private func readStats() -> CaptureStats {
        guard !finished else { return .empty }
        var stats = ring.counters().since(baseline)
        stats.writeFailure = writeFailure
        return stats
    }

    /// The TCP segments written so far (call `sync()` first to include the latest), each with
    /// at most `payloadPrefix` bytes of its payload. Only what was written since the last call
    /// with the same prefix is decoded.
    public func segments(payloadPrefix: Int = .max) throws -> [TCPSegment] {
        let file = lock.withLock { finished ? path : partialPath }
        // A lock of its own: decoding a large capture must not hold up the ring's reader.
        return try decodedLock.withLock {
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
    public func stop() -> CaptureStats {
        stop(interrupted: false)
    }

    /// Stops; an interrupted capture is kept as `interruptedPath`.
    @discardableResult
    public func stop(interrupted: Bool) -> CaptureStats {
        var one: UInt8 = 1
        if lock.withLock({ finished }) { return .empty }
        CaptureRegistry.shared.remove(self)
        decodedLock.withLock { decoded = [:] }
        _ = write(stopPipe[1], &one, 1)
        try? reader.syncShutdownGracefully()
        return lock.withLock {
            _ = drain()
            flush()
            let stats = readStats()
            pcap_dump_close(dumper)
            CaptureRingPool.shared.giveBack(ring)
            close(stopPipe[0])
            close(stopPipe[1])
            finished = true
            _ = rename(partialPath, interrupted ? interruptedPath : path)
            return stats
        }
    }

    deinit {
        stop()
    }
}
