import NIOConcurrencyHelpers

/// The first match of an `expect until /RE/` in the bytes received so far. A short window is
/// searched at once; a longer one on a search thread (`SearchThreads`), one search at a time,
/// the next over all that arrived meanwhile, so a regex that backtracks over a long window
/// never holds the event loop and the expect's timeout still fires.
final class RegexSearch: @unchecked Sendable {
    /// A match read back as bytes: where it ends, and what its named groups took, as UTF-8.
    struct Found: Sendable {
        let length: Int
        let captures: [String: String]
    }

    /// What a finished search found in a window's first `bytes` bytes.
    struct Result: Sendable {
        let bytes: Int
        let found: Found?
    }

    /// Windows of at most this many bytes are searched on the loop: the hop to a thread and
    /// back costs more than the search, and even a regex that backtracks over every start takes
    /// about 2 ms here.
    static let inlineLimit = 256

    private let compiled: CompiledRegex
    /// Called on the search thread when a search finishes.
    private let finished: @Sendable () -> Void
    private let lock = NIOLock()
    private var latest: Result?
    /// How many bytes the search under way covers; nil when none runs.
    private var running: Int?

    init(_ compiled: CompiledRegex, finished: @escaping @Sendable () -> Void) {
        self.compiled = compiled
        self.finished = finished
    }

    /// What is known of `text`, a window of `bytes` bytes: a match or none, at once for a
    /// short window; otherwise the latest finished search's result, starting a search of
    /// `text` when none runs and that result covers fewer bytes. Nil until one finished.
    func result(for text: String, bytes: Int) -> Result? {
        if bytes <= Self.inlineLimit { return Result(bytes: bytes, found: Self.search(compiled, in: text)) }
        return lock.withLock {
            if running == nil, (latest?.bytes ?? -1) < bytes {
                running = bytes
                SearchThreads.shared.run { [self] in
                    let found = Self.search(compiled, in: text)
                    lock.withLock {
                        latest = Result(bytes: bytes, found: found)
                        running = nil
                    }
                    finished()
                }
            }
            return latest
        }
    }

    /// How many bytes the search under way covers; nil when none runs.
    var searching: Int? { lock.withLock { running } }

    /// The first match of `compiled` in `text`, one character to a byte.
    private static func search(_ compiled: CompiledRegex, in text: String) -> Found? {
        guard let match = try? compiled.scalarRegex.firstMatch(in: text) else { return nil }
        let scalars = text.unicodeScalars
        var captures: [String: String] = [:]
        for name in compiled.groups {
            if let substring = match.output[name]?.substring {
                captures[name] = String(decoding: substring.unicodeScalars.map { UInt8($0.value) }, as: UTF8.self)
            }
        }
        return Found(length: scalars.distance(from: scalars.startIndex, to: match.range.upperBound), captures: captures)
    }
}
