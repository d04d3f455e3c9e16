import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The link between the probe and a network's namespace: two TUN devices, one beside the probe
/// and one in the namespace, and a loop on a thread of its own that reads each whole IP packet
/// (IPv4 or IPv6) from one and writes it to the other, applying each direction's faults. Upstream
/// is from the probe's side toward the subject's.
package final class PacketLink: Sendable {
    package enum Direction: Sendable, CaseIterable {
        case upstream, downstream
    }

    /// A packet the link dropped: when (seconds since 1970, as a capture stamps packets), which
    /// way, and its first bytes (the IP and TCP headers, and the start of the payload).
    package struct Dropped: Sendable {
        package let time: Double
        package let direction: Direction
        package let head: [UInt8]
    }

    /// The most dropped packets kept for the report, a direction.
    package static let droppedKept = 2000

    /// A packet waiting to leave.
    private struct Held {
        let release: Int64
        let bytes: [UInt8]
    }

    private struct State {
        var upstream = LinkDirection()
        var downstream = LinkDirection()
        var random: SeededGenerator
        var stopping = false
        var dropped: [Dropped] = []

        subscript(direction: Direction) -> LinkDirection {
            get { direction == .upstream ? upstream : downstream }
            set { if direction == .upstream { upstream = newValue } else { downstream = newValue } }
        }

        mutating func admit(_ direction: Direction, size: Int, at now: Int64, queued: Int) -> LinkDirection.Verdict {
            switch direction {
            case .upstream: return upstream.admit(size: size, at: now, queued: queued, using: &random)
            case .downstream: return downstream.admit(size: size, at: now, queued: queued, using: &random)
            }
        }
    }

    private let probeSide: Int32
    private let subjectSide: Int32
    /// A pipe whose write wakes the loop for a change of faults or its stop.
    private let wake: (read: Int32, write: Int32)
    private let state: Mutex<State>
    private let stopped = DispatchSemaphore(value: 0)

    /// Takes the two devices' descriptors (non-blocking), and closes them when stopped.
    package init(probeSide: Int32, subjectSide: Int32, seed: UInt64) {
        self.probeSide = probeSide
        self.subjectSide = subjectSide
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        wake = (ends[0], ends[1])
        state = Mutex(State(random: SeededGenerator(seed: seed)))
    }

    /// Starts the loop.
    package func start() {
        DetachedThread.run { [self] in
            forward()
            for descriptor in [probeSide, subjectSide, wake.read, wake.write] { close(descriptor) }
            stopped.signal()
        }
    }

    /// Changes the faults of `direction`, or of both when nil, from the next packet on.
    package func change(_ direction: Direction?, _ body: (inout LinkFaults) -> Void) {
        state.withLock { state in
            for side in Direction.allCases where direction == nil || direction == side { body(&state[side].faults) }
        }
        poke()
    }

    /// The packets dropped so far, in order (at most `droppedKept` a direction).
    package var dropped: [Dropped] {
        state.withLock { $0.dropped }
    }

    /// What each direction did so far.
    package var counts: (upstream: LinkCounts, downstream: LinkCounts) {
        state.withLock { ($0.upstream.counts, $0.downstream.counts) }
    }

    /// Stops the loop, drops what it held, and closes the devices (which removes them); waits
    /// up to a second for the loop to end.
    package func stop() {
        state.withLock { $0.stopping = true }
        poke()
        _ = stopped.wait(timeout: .now() + 1)
    }

    private func poke() {
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)
    }

    /// Nanoseconds of the monotonic clock.
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Seconds since 1970, as libpcap stamps a captured packet.
    private static func wallClock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The loop: waits for a packet, a change or the next packet due, then moves what it can.
    private func forward() {
        var queues: [[Held]] = [[], []] // upstream, downstream, each in release order
        var buffer = [UInt8](repeating: 0, count: 65536)
        var polled = [pollfd(fd: probeSide, events: Int16(POLLIN), revents: 0), pollfd(fd: subjectSide, events: Int16(POLLIN), revents: 0),
                      pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            var now = Self.now()
            for (index, destination) in [subjectSide, probeSide].enumerated() {
                var due = 0
                while due < queues[index].count, queues[index][due].release <= now {
                    _ = queues[index][due].bytes.withUnsafeBytes { write(destination, $0.baseAddress, $0.count) }
                    due += 1
                }
                queues[index].removeFirst(due) // once a batch: a queue of a thousand is not shifted a packet at a time
            }
            let next = queues.compactMap { $0.first?.release }.min()
            let timeout = next.map { Int32(clamping: ($0 - now + 999_999) / 1_000_000) } ?? -1
            for index in polled.indices { polled[index].revents = 0 }
            guard Syscall.retryingInterrupts({ poll(&polled, 3, timeout) }) >= 0 else { return }
            if polled[2].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(wake.read, &drained, drained.count) > 0 {}
                if state.withLock({ $0.stopping }) { return }
            }
            now = Self.now()
            for (index, direction) in Direction.allCases.enumerated() where polled[index].revents != 0 {
                let source = polled[index].fd
                state.withLock { state in
                    // A bounded batch, so one busy direction cannot starve the other.
                    for _ in 0..<256 {
                        let size = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
                        guard size > 0 else { break }
                        let verdict = state.admit(direction, size: size, at: now, queued: queues[index].count)
                        guard case .send(let release, let twice) = verdict else {
                            if state[direction].counts.dropped + state[direction].counts.overflowed <= Self.droppedKept {
                                state.dropped.append(Dropped(time: Self.wallClock(), direction: direction, head: Array(buffer[..<min(size, 128)])))
                            }
                            continue
                        }
                        let bytes = Array(buffer[..<size])
                        for _ in 0..<(twice ? 2 : 1) { Self.insert(Held(release: release, bytes: bytes), into: &queues[index]) }
                    }
                }
            }
        }
    }

    /// Puts `held` after every packet leaving no later than it: most come in order and go last.
    private static func insert(_ held: Held, into queue: inout [Held]) {
        guard let last = queue.last, last.release > held.release else { return queue.append(held) }
        var low = 0, high = queue.count
        while low < high {
            let middle = (low + high) / 2
            if queue[middle].release <= held.release { low = middle + 1 } else { high = middle }
        }
        queue.insert(held, at: low)
    }
}
