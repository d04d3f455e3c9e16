import CPcap
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An activated libpcap handle on one interface: the kernel ring that captured packets land in.
///
/// Setting up a ring clears every page of it (tens of milliseconds for 256 MiB, near a second
/// when the memory is cold: BENCHMARKS.md 4), so the process keeps one and every capture shares
/// it (`SharedCaptureRing`).
/// Its kernel filter keeps nothing until a capture watches a port.
/// Sendable: libpcap's handle is read by the shared ring's one reader thread, and its counters
/// under `taken`'s Mutex; the rest are lets.
final class CaptureRing: @unchecked Sendable {
    let interface: String
    let bufferSize: Int
    let snapLength: Int
    let handle: OpaquePointer
    /// About how many packets the ring holds: libpcap cuts it into slots of the snap length
    /// plus a header of under 96 bytes, one packet a slot.
    let capacity: Int
    /// Packets taken out of the ring since it opened, set level with the kernel's count
    /// whenever the reader finds the ring empty (libpcap skips some frames without a callback).
    /// Its lock also guards libpcap's counters: the reader thread and senders checking the
    /// backlog both read them.
    private let taken = Mutex(0)

    /// Activates a ring of `bufferSize` bytes on `interface`, keeping at most `snapLength` bytes
    /// of each packet, non-blocking, keeping no packets yet.
    /// libpcap's message in `errors`, a NUL-terminated buffer it filled.
    private static func message(_ errors: [CChar]) -> String {
        errors.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    init(interface: String, bufferSize: Int, snapLength: Int) throws {
        self.interface = interface
        self.bufferSize = bufferSize
        self.snapLength = snapLength
        self.capacity = max(1, bufferSize / ((min(snapLength, PcapCapture.fullSnapLength) + 96 + 15) / 16 * 16))
        var errors = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE))
        guard let handle = pcap_create(interface, &errors) else {
            throw CaptureError.failed("cannot open interface \(interface): \(Self.message(errors))")
        }
        pcap_set_snaplen(handle, Int32(clamping: snapLength))
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
        let linkType = UInt32(bitPattern: pcap_datalink(handle))
        swapsFilterAtomically = linkType != PacketDecoder.linuxSLL && linkType != PacketDecoder.linuxSLL2
        if Self.isLoopback(interface) { ignoreOutgoing() }
        do {
            try setFilter(.nothing)
            guard pcap_setnonblock(handle, 1, &errors) == 0 else {
                throw CaptureError.failed("cannot make the capture non-blocking: \(Self.message(errors))")
            }
        } catch {
            pcap_close(handle)
            throw error
        }
    }

    /// Whether `setFilter` swaps the kernel's filter in one step. libpcap's own `pcap_setfilter`
    /// rejects every packet for a moment while it swaps (it drains the socket under a
    /// filter that keeps nothing), losing packets in flight without counting them; so the
    /// ring attaches the compiled program itself, which the kernel swaps atomically. Cooked
    /// captures (`any`, non-Ethernet links) need libpcap to rewrite the program's offsets
    /// first, so their filter is only changed while no capture has traffic in flight.
    let swapsFilterAtomically: Bool

    /// Lets `filter`'s traffic into the ring from now on.
    func setFilter(_ filter: CaptureFilter) throws {
        var program = bpf_program()
        guard pcap_compile(handle, &program, filter.expression, 1, PCAP_NETMASK_UNKNOWN) == 0 else {
            throw CaptureError.failed("cannot compile the capture filter '\(filter.expression)': \(String(cString: pcap_geterr(handle)))")
        }
        defer { pcap_freecode(&program) }
        if swapsFilterAtomically {
            var code = sock_fprog(len: UInt16(program.bf_len), filter: UnsafeMutableRawPointer(program.bf_insns).assumingMemoryBound(to: sock_filter.self))
            guard setsockopt(pcap_fileno(handle), SOL_SOCKET, SO_ATTACH_FILTER, &code, socklen_t(MemoryLayout<sock_fprog>.size)) == 0 else {
                throw CaptureError.failed("cannot set the capture filter: \(String(cString: strerror(errno)))")
            }
        } else {
            guard pcap_setfilter(handle, &program) == 0 else {
                throw CaptureError.failed("cannot set the capture filter: \(String(cString: pcap_geterr(handle)))")
            }
        }
    }

    /// libpcap's counters since the ring was opened; a capture reports the difference.
    /// Safe to call while the reader drains: libpcap's reading and its statistics share no state.
    func counters() -> CaptureStats {
        taken.withLock { _ in readCounters() }
    }

    private func readCounters() -> CaptureStats {
        var counters = pcap_stat()
        guard pcap_stats(handle, &counters) == 0 else { return .empty }
        return CaptureStats(received: Int(counters.ps_recv), dropped: Int(counters.ps_drop), interfaceDropped: Int(counters.ps_ifdrop))
    }

    /// About how many packets wait in the ring for the reader: those the kernel put in, less
    /// those taken out. Costs one system call; never negative.
    func backlog() -> Int {
        taken.withLock { taken in
            let counters = readCounters()
            return max(0, counters.received - counters.dropped - taken)
        }
    }

    /// Hands every packet waiting in the ring to `handler`, a batch at a time so the backlog
    /// follows along, and returns how many there were.
    func drain(_ handler: pcap_handler, _ user: UnsafeMutablePointer<UInt8>?) -> Int {
        var total = 0
        while true {
            let count = Int(pcap_dispatch(handle, 256, handler, user))
            if count <= 0 { break }
            total += count
            taken.withLock { $0 += count }
        }
        // Empty now: whatever the kernel has counted is out, skipped frames included.
        taken.withLock { taken in
            let counters = readCounters()
            taken = counters.received - counters.dropped
        }
        return total
    }

    /// Whether the kernel flags `interface` as a loopback device (`IFF_LOOPBACK` in sysfs).
    private static func isLoopback(_ interface: String) -> Bool {
        guard let text = try? String(contentsOfFile: "/sys/class/net/\(interface)/flags", encoding: .utf8),
              let flags = Int(text.filter { !$0.isWhitespace }.dropFirst(2), radix: 16) else { return false }
        return flags & Int(IFF_LOOPBACK) != 0
    }

    /// On loopback every packet reaches the ring twice, as sent and as received, and libpcap
    /// throws the sent copy away. `PACKET_IGNORE_OUTGOING` (Linux 4.20) keeps the sent copy out
    /// of the ring, halving its load; the received copy of every packet, SYN included, remains.
    /// On an older kernel the option fails and both copies are let through as before.
    private func ignoreOutgoing() {
        var on: Int32 = 1
        _ = setsockopt(pcap_fileno(handle), 263 /* SOL_PACKET */, 23 /* PACKET_IGNORE_OUTGOING */, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        pcap_close(handle)
    }
}
