#if canImport(Glibc)
import Glibc
#endif

/// The limit on open files (RLIMIT_NOFILE), raised as far as the process may: the soft limit to
/// the hard one at start, and, when a `parallel` block needs more, the hard limit too, up to
/// `fs.nr_open`, which a process with CAP_SYS_RESOURCE (root) may do.
package enum DescriptorLimit {
    /// Why there is not room for the descriptors asked for, with the numbers.
    package struct Shortfall: Error, CustomStringConvertible {
        package var needed: Int
        package var open: Int
        package var soft: Int
        package var hard: Int
        package var systemMaximum: Int?

        package var description: String {
            var text = "needs about \(needed) more file descriptors, and \(open) are open, but the limit is \(soft)"
            text += soft == hard ? " (the hard limit too" : " (hard limit \(hard)"
            if let systemMaximum { text += "; fs.nr_open is \(systemMaximum)" }
            text += "): raise it with `ulimit -n`, or run as root, which may raise the hard limit"
            return text
        }
    }

    /// Lifts the soft limit to the hard limit.
    package static func raiseToHard() {
        guard var limit = current(), limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Makes room for `needed` more descriptors than are open now, raising the limits as far as
    /// the process may and growing the descriptor table to hold them (one wait now, none while
    /// they open); the shortfall when it cannot.
    package static func makeRoom(for needed: Int) -> Result<Void, Shortfall> {
        let open = openCount()
        let room = raiseLimits(toHold: open + needed, needed: needed, open: open)
        if case .success = room { DescriptorTable.grow(toHold: open + needed) }
        return room
    }

    private static func raiseLimits(toHold total: Int, needed: Int, open: Int) -> Result<Void, Shortfall> {
        let wanted = rlim_t(total)
        guard var limit = current() else { return .success(()) }
        if limit.rlim_cur >= wanted { return .success(()) }
        let systemMaximum = nrOpen()
        if limit.rlim_max < wanted, let systemMaximum {
            var raised = limit
            raised.rlim_max = min(rlim_t(systemMaximum), max(wanted, limit.rlim_max))
            raised.rlim_cur = raised.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        if limit.rlim_cur < wanted, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        guard let now = current(), now.rlim_cur < wanted else { return .success(()) }
        return .failure(Shortfall(needed: needed, open: open, soft: Int(now.rlim_cur), hard: Int(now.rlim_max), systemMaximum: systemMaximum))
    }

    static func current() -> rlimit? {
        var limit = rlimit()
        return getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? limit : nil
    }

    /// How many descriptors the process has open, from /proc/self/fd.
    static func openCount() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = -1 // the directory's own descriptor
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return max(0, count)
    }

    /// The most a hard limit may be raised to (`/proc/sys/fs/nr_open`).
    static func nrOpen() -> Int? {
        guard let bytes = try? WholeFile.bytes(atPath: "/proc/sys/fs/nr_open") else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    }
}
