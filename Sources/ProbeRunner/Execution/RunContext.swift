import NIOCore
import ProbeHost
import ProbeScript

/// What one run of a scenario shares with every copy of its `parallel` blocks: the scenario, the
/// options, the run's one event loop, its clock and start, and the caches the copies fill
/// together. One reference, so a copy cannot forget a field of it.
final class RunContext {
    let scenario: Scenario
    let options: RunOptions
    /// The run's event loop: its channels, its timers and the task that drives them.
    let loop: EventLoop
    let clock = RunClock()
    let start: RunClock.Instant
    /// The regexes expects have compiled.
    let regexCache = RegexCache()
    /// The addresses of the host names connected to.
    let hostNames = HostNames()
    /// The next address of each `connect … from NETWORK/PREFIX`.
    let sourceAddresses = SourceAddresses()
    /// Its networks: a run makes them, its copies use them.
    let networks = NetworkTable()
    /// The ports `free-port` picked, held until the scenario's `listen` takes one.
    let heldPorts = HeldPorts()
    /// The `parallel` block each `assert copies`/`assert latency` judges.
    let parallelAssertions: ParallelAssertionChecker.Pairing
    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    /// The storage single writes are made in, used again once the socket has taken the last
    /// one (NIO then holds no reference to it): a round trip allocates no buffer. On the loop.
    @exclusivity(unchecked) private var writeBuffer = ByteBuffer()
    /// The most bytes `writeBuffer` keeps room for; larger writes get storage of their own.
    private static let largestReusedWrite = 4096

    init(scenario: Scenario, options: RunOptions, loop: EventLoop) {
        self.scenario = scenario
        self.options = options
        self.loop = loop
        parallelAssertions = ParallelAssertionChecker.pairing(scenario.statements)
        start = clock.now
    }

    /// A buffer holding `bytes` for one write: in `writeBuffer`'s storage when no write still
    /// holds it and the bytes fit, else in new storage (copy-on-write).
    func bufferForWrite(_ bytes: [UInt8]) -> ByteBuffer {
        guard bytes.count <= Self.largestReusedWrite else { return ByteBuffer(bytes: bytes) }
        writeBuffer.clear()
        // As raw memory: a plain copy, where the generic sequence write took a path of its own.
        bytes.withUnsafeBytes { writeBuffer.writeBytes($0) }
        return writeBuffer
    }
}
