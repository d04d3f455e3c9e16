#if canImport(Glibc)
import Glibc
#endif

/// The kernel's table of this process's descriptors, grown ahead of need. Linux grows it, to the
/// next power of two, when a descriptor past its end is opened, and in a process with more than
/// one thread the thread that opens it then waits for an RCU grace period, milliseconds long,
/// at descriptors 64, 128, 256 and each power of two on (bench/fd-table-growth.c, BENCHMARKS.md
/// 3a). An event loop that opens a connection then stalls, and a split's
/// gap, a `within` or an `every` beside it comes out late. Grown while the process has one
/// thread, the table costs no such wait; once threads run, growing it stalls once, where the
/// caller chooses, instead of during a step.
package enum DescriptorTable {
    /// What tcpprobe reserves at start: more descriptors than a run without large `parallel`
    /// blocks opens, for about 32 KiB of kernel memory.
    package static let startingSize = 4096

    /// Grows the table to hold descriptors `0..<count` (no further than the soft limit allows),
    /// by opening one descriptor at or above `count - 1` and closing it; a table never shrinks.
    package static func grow(toHold count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let highest = Int32(clamping: min(count, Int(clamping: limit.rlim_cur)) - 1)
        guard highest >= 64 else { return }
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard probe >= 0 else { return }
        defer { close(probe) }
        // F_DUPFD takes the lowest free descriptor at or above `highest`: it never replaces one.
        let high = fcntl(probe, F_DUPFD_CLOEXEC, highest)
        if high >= 0 { close(high) }
    }
}
