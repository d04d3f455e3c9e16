import CPcap
import Foundation
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

    private let handle: OpaquePointer
    private let dumper: OpaquePointer
    private let lock = NSLock()
    private var ports: Set<Int> = []
    private var stopPipe: [Int32] = [-1, -1]
    private var reader: Thread?
    private var finished = false
    private let readerDone = DispatchSemaphore(value: 0)

    /// Immediate mode gives each packet a ring slot of the snap length. An IP packet is at most
    /// 65535 bytes, so 65600 (with link headers) cuts nothing; 262144 left a quarter as many
    /// slots and dropped 719 packets of a 256 MiB loopback transfer.
    public static let snapLength: Int32 = 65_600
    /// The ring absorbs bursts while the reader thread waits for a core. On 2 cores, with the
    /// reader at nice -15, a 256 MiB loopback transfer dropped 145 to 1269 packets with 128 MiB
    /// and none with 256 MiB. A 256 MiB ring sets up in about 70 ms (about 1 s on a cold first run).
    public static let defaultBufferSize = 256 * 1024 * 1024

    /// Opens the interface and starts dumping to `path` (as `path.part` until stopped).
    public init(interface: String = "lo", path: String, bufferSize: Int = PcapCapture.defaultBufferSize) throws {
        self.interface = interface
        self.path = path
        self.partialPath = path + ".part"
        var errors = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        guard let handle = pcap_create(interface, &errors) else {
            throw CaptureError.failed("cannot open interface \(interface): \(String(cString: errors))")
        }
        func fail(_ message: String) -> CaptureError {
            pcap_close(handle)
            return .failed(message)
        }
        pcap_set_snaplen(handle, Self.snapLength)
        pcap_set_immediate_mode(handle, 1)
        pcap_set_buffer_size(handle, Int32(clamping: bufferSize))
        let status = pcap_activate(handle)
        if status < 0 {
            let message = String(cString: pcap_geterr(handle))
            pcap_close(handle)
            if status == PCAP_ERROR_PERM_DENIED { throw CaptureError.permissionDenied(message.isEmpty ? "permission denied" : message) }
            if status == PCAP_ERROR_NO_SUCH_DEVICE { throw CaptureError.failed("no such interface: \(interface)") }
            throw CaptureError.failed("cannot capture on \(interface): \(message) (pcap status \(status))")
        }
        self.handle = handle
        if Self.isLoopback(interface) { Self.ignoreOutgoing(handle) }
        if let problem = Self.setFilter(handle, ports: []) { throw fail(problem) }
        guard let dumper = pcap_dump_open(handle, partialPath) else {
            throw fail("cannot write \(partialPath): \(String(cString: pcap_geterr(handle)))")
        }
        self.dumper = dumper
        guard pcap_setnonblock(handle, 1, &errors) == 0 else {
            pcap_dump_close(dumper)
            throw fail("cannot make the capture non-blocking: \(String(cString: errors))")
        }
        guard pipe(&stopPipe) == 0 else {
            pcap_dump_close(dumper)
            throw fail("cannot create the capture's stop pipe")
        }
        let thread = Thread { [unowned self] in self.readLoop() }
        thread.name = "tcpprobe-capture"
        reader = thread
        thread.start()
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
            if let problem = Self.setFilter(handle, ports: ports) { throw CaptureError.failed(problem) }
        }
    }

    /// Whether the kernel flags `interface` as a loopback device (`IFF_LOOPBACK` in sysfs).
    static func isLoopback(_ interface: String) -> Bool {
        guard let text = try? String(contentsOfFile: "/sys/class/net/\(interface)/flags", encoding: .utf8),
              let flags = Int(text.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16) else { return false }
        return flags & Int(IFF_LOOPBACK) != 0
    }

    /// On loopback every packet reaches the ring twice, as sent and as received, and libpcap
    /// throws the sent copy away. `PACKET_IGNORE_OUTGOING` (Linux 4.20) keeps the sent copy out
    /// of the ring, halving its load; the received copy of every packet, SYN included, remains.
    /// On an older kernel the option fails and both copies are let through as before.
    private static func ignoreOutgoing(_ handle: OpaquePointer) {
        var on: Int32 = 1
        _ = setsockopt(pcap_fileno(handle), 263 /* SOL_PACKET */, 23 /* PACKET_IGNORE_OUTGOING */, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func setFilter(_ handle: OpaquePointer, ports: Set<Int>) -> String? {
        // Port 0 carries no traffic: before any port is known the capture keeps nothing.
        let expression = ports.isEmpty ? "tcp port 0" : ports.sorted().map { "tcp port \($0)" }.joined(separator: " or ")
        var program = bpf_program()
        guard pcap_compile(handle, &program, expression, 1, PCAP_NETMASK_UNKNOWN) == 0 else {
            return "cannot compile the capture filter '\(expression)': \(String(cString: pcap_geterr(handle)))"
        }
        defer { pcap_freecode(&program) }
        guard pcap_setfilter(handle, &program) == 0 else {
            return "cannot set the capture filter: \(String(cString: pcap_geterr(handle)))"
        }
        return nil
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
            let drained = lock.withLock { drain() }
            emptyDrains = drained > 0 ? 0 : min(emptyDrains + 1, Self.quietTicks)
        }
        readerDone.signal()
    }

    /// Writes every packet waiting in the kernel ring to the file (lock held).
    private func drain() -> Int {
        var total = 0
        let user = UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self)
        while true {
            let count = pcap_dispatch(handle, -1, pcap_dump, user)
            if count <= 0 { break }
            total += Int(count)
        }
        return total
    }

    /// A barrier: every packet captured so far is in the file when it returns.
    public func sync() {
        lock.withLock {
            guard !finished else { return }
            _ = drain()
            pcap_dump_flush(dumper)
        }
    }

    public func stats() -> CaptureStats {
        lock.withLock { readStats() }
    }

    private func readStats() -> CaptureStats {
        var counters = pcap_stat()
        guard !finished, pcap_stats(handle, &counters) == 0 else { return CaptureStats(received: 0, dropped: 0, interfaceDropped: 0) }
        return CaptureStats(received: Int(counters.ps_recv), dropped: Int(counters.ps_drop), interfaceDropped: Int(counters.ps_ifdrop))
    }

    /// The TCP segments written so far (call `sync()` first to include the latest).
    public func segments() throws -> [TCPSegment] {
        try PcapFile.segments(atPath: lock.withLock { finished ? path : partialPath }, allowTruncatedTail: true)
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
        if lock.withLock({ finished }) { return CaptureStats(received: 0, dropped: 0, interfaceDropped: 0) }
        CaptureRegistry.shared.remove(self)
        _ = write(stopPipe[1], &one, 1)
        readerDone.wait()
        return lock.withLock {
            _ = drain()
            let stats = readStats()
            pcap_dump_flush(dumper)
            pcap_dump_close(dumper)
            pcap_close(handle)
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
