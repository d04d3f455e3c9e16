import CPcap
import NIOPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one kernel ring the process captures on, per interface, size and snap length, shared by
/// every capture that runs at once: its reader hands each packet to the capture whose ports it
/// carries (to each of them when several watch a port). However many scenarios run side by
/// side, the ring's memory (about twice its size for whole packets) and its set-up are paid once.
///
/// The kernel filter keeps the TCP of the ports the captures watch, so other programs' traffic
/// on the interface never takes the ring's slots nor counts among its drops: a capture stays
/// complete while a database next to the subject moves gigabytes. The filter follows the
/// ports as captures come and go (each change keeps every port still watched, so nothing
/// waiting in the ring is lost); on a cooked capture, whose filter cannot be swapped in one
/// step, it keeps all TCP while any capture runs and changes only when none has traffic.
/// Sendable: its variables are guarded by `lock`, and the registry by its Mutex.
final class SharedCaptureRing: @unchecked Sendable {
    /// The rings open, by interface, size and snap length, and how many were ever opened.
    private static let registry = Mutex<(rings: [String: SharedCaptureRing], opened: Int)>(([:], 0))

    /// How many rings the process has opened.
    static var opened: Int { registry.withLock { $0.opened } }

    /// The ring for these settings, opened on first use and kept for the process's life.
    static func ring(interface: String, bufferSize: Int, snapLength: Int) throws -> SharedCaptureRing {
        try registry.withLock { registry in
            let key = "\(interface)|\(bufferSize)|\(snapLength)"
            if let ring = registry.rings[key] { return ring }
            let ring = SharedCaptureRing(try CaptureRing(interface: interface, bufferSize: bufferSize, snapLength: snapLength))
            registry.rings[key] = ring
            registry.opened += 1
            return ring
        }
    }

    let ring: CaptureRing
    private let linkType: UInt32
    /// Guards the sinks, the routes and the ring's draining: the fields below, and the state
    /// of the captures that `locked` runs their code under it.
    private let lock = Mutex(())
    private var sinks: [ObjectIdentifier: CaptureSink] = [:]
    /// The sinks of each port watched.
    private var routes: [Int: [CaptureSink]] = [:]
    /// The connections each sink claimed as its own, by their two ports: where a packet goes
    /// when several sinks watch one of its ports (scenarios run side by side against one server).
    private var claims: [PortPair: CaptureSink] = [:]
    /// Packets of a port several sinks watch, whose connection no sink has claimed yet (a SYN
    /// before its `connect` returned): held, in order, until one does. Bounded.
    private var unclaimed: [PortPair: [HeldPacket]] = [:]
    private var unclaimedBytes = 0
    /// The most bytes of packets held for a claim; past it the oldest connection's are dropped.
    static let unclaimedLimit = 4 << 20
    /// What the kernel filter lets into the ring.
    private var filter = CaptureFilter.nothing
    private let reader = NIOThreadPool(numberOfThreads: 1)

    private init(_ ring: CaptureRing) {
        self.ring = ring
        linkType = UInt32(bitPattern: pcap_datalink(ring.handle))
        reader.start()
        reader.submit { [unowned self] _ in self.readLoop() }
    }

    /// Runs `body` with the reader held off: what is drained in it is drained for everyone.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock { _ in try body() }
    }

    /// Adds a capture's sink, watching no port yet. Under `locked`.
    func add(_ sink: CaptureSink) throws {
        sinks[ObjectIdentifier(sink)] = sink
        try route()
    }

    /// Takes a capture's sink out, after draining what is waiting for it. Under `locked`.
    func remove(_ sink: CaptureSink) {
        _ = drain()
        sinks.removeValue(forKey: ObjectIdentifier(sink))
        claims = claims.filter { $0.value !== sink }
        try? route()
    }

    /// The connection between `port` and `otherPort` is `sink`'s: its packets go to it alone,
    /// those held for a claim first. Under `locked`.
    func claim(_ port: Int, _ otherPort: Int, for sink: CaptureSink) {
        _ = drain()
        let pair = PortPair(port, otherPort)
        claims[pair] = sink
        for packet in unclaimed.removeValue(forKey: pair) ?? [] {
            unclaimedBytes -= packet.bytes.count
            packet.write(to: sink)
        }
    }

    /// Adds `port` to what `sink` keeps. Under `locked`.
    func watch(_ port: Int, for sink: CaptureSink) throws {
        sink.ports.insert(port)
        try route()
    }

    /// Which sinks each port's packets go to, and the kernel filter that lets in their ports.
    private func route() throws {
        var routes: [Int: [CaptureSink]] = [:]
        for sink in sinks.values {
            for port in sink.ports { routes[port, default: []].append(sink) }
        }
        self.routes = routes
        let wanted = sinks.isEmpty ? .nothing : ring.swapsFilterAtomically ? CaptureFilter(watching: Set(routes.keys)) : .allTCP
        if wanted != filter {
            if !ring.swapsFilterAtomically { _ = drain() } // libpcap re-filters what waits: deliver it first
            try ring.setFilter(wanted)
            filter = wanted
        }
    }

    /// Hands every packet waiting in the ring to the sinks whose ports it carries. Under `locked`.
    func drain() -> Int {
        ring.drain({ user, header, bytes in
            guard let user, let header, let bytes else { return }
            Unmanaged<SharedCaptureRing>.fromOpaque(user).takeUnretainedValue().deliver(header, bytes)
        }, Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: UInt8.self))
    }

    /// A packet goes to the one sink that watches its ports; when several do, to the one that
    /// claimed its connection, or it waits for a claim. A scenario's pcap holds its own
    /// connections and no one else's, whatever runs beside it.
    private func deliver(_ header: UnsafePointer<pcap_pkthdr>, _ bytes: UnsafePointer<UInt8>) {
        let data = UnsafeRawBufferPointer(start: bytes, count: Int(header.pointee.caplen))
        guard let (source, destination) = PacketDecoder.ports(linkType: linkType, data: data) else { return }
        let bySource = routes[source] ?? [], byDestination = routes[destination] ?? []
        let watchers = bySource.count + byDestination.count
        if watchers == 1 || (watchers == 2 && bySource.first === byDestination.first) {
            (bySource.first ?? byDestination.first)?.write(header, bytes)
            return
        }
        guard watchers > 0 else { return }
        let pair = PortPair(source, destination)
        if let owner = claims[pair] { return owner.write(header, bytes) }
        hold(HeldPacket(header: header.pointee, bytes: Array(UnsafeBufferPointer(start: bytes, count: Int(header.pointee.caplen)))), for: pair)
    }

    private func hold(_ packet: HeldPacket, for pair: PortPair) {
        unclaimed[pair, default: []].append(packet)
        unclaimedBytes += packet.bytes.count
        // Over the limit, the connections held longest give way (they were never claimed).
        while unclaimedBytes > Self.unclaimedLimit, let oldest = unclaimed.min(by: { $0.value[0].arrival < $1.value[0].arrival }) {
            unclaimed.removeValue(forKey: oldest.key)
            unclaimedBytes -= oldest.value.reduce(0) { $0 + $1.bytes.count }
        }
    }

    /// While packets flow the reader drains the ring on a clock instead of sleeping in `poll`
    /// on the capture socket: a sleeping reader has to be woken for every packet, which costs
    /// the sending core an interrupt-disabled wake-up (an IPI on a VM) per packet. After
    /// `quietTicks` empty drains in a row it goes back to `poll`, so an idle ring costs nothing.
    private static let tickMilliseconds: Int32 = 1
    private static let quietTicks = 10

    private func readLoop() {
        // The reader must win the CPU against the traffic it records, or the ring overflows.
        // Raising priority needs CAP_SYS_NICE; without it the thread keeps the default.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -15) // on Linux: this thread only
        var descriptor = pollfd(fd: pcap_get_selectable_fd(ring.handle), events: Int16(POLLIN), revents: 0)
        var emptyDrains = Self.quietTicks
        while true {
            if emptyDrains < Self.quietTicks {
                usleep(UInt32(Self.tickMilliseconds) * 1000) // packets wake no one
            } else {
                _ = poll(&descriptor, 1, 50)
            }
            let drained = lock.withLock { _ in drain() }
            emptyDrains = drained > 0 ? 0 : min(emptyDrains + 1, Self.quietTicks)
        }
    }
}
