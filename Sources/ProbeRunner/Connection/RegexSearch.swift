import NIOCore
import Synchronization

/// The first match of an expect's regex: in the bytes received so far (`expect until /RE/`,
/// one character to a byte), or in one line or text message. A short text is searched at once;
/// a longer one on a search thread (`SearchThreads`), one search at a time, the next over all
/// that arrived meanwhile, so a regex that backtracks over a long text never holds the event
/// loop and the expect's timeout still fires.
final class RegexSearch: Sendable {
    /// A match: where it ends (in characters), and what its named groups took.
    struct Found: Sendable {
        let length: Int
        /// Each named group's exact bytes.
        let captures: [String: [UInt8]]
    }

    /// What a finished search found in a text's first `bytes` bytes.
    struct Result: Sendable {
        let bytes: Int
        let found: Found?
    }

    /// Texts of at most this many bytes are searched on the loop: the hop to a thread and back
    /// costs more than the search, and even a regex that backtracks from every start takes
    /// milliseconds at most.
    static let inlineLimit = 256

    /// The line or text message judged, taken from the stream (`size` bytes of it, its
    /// terminator counted) while its search runs; nil for a search of the bytes received.
    let heldLine: (bytes: [UInt8], size: Int, unit: String)?
    /// The bytes received so far, as the text a search of them reads; grown on the loop (the
    /// Mutex is never contended: it lets the class be Sendable without a claim).
    private let window = Mutex(ByteText())
    private let compiled: CompiledRegex
    /// Called on the search thread when a search finishes.
    private let finished: @Sendable () -> Void
    /// The latest finished search's result, and how many bytes the search under way covers
    /// (nil when none runs).
    private let searches = Mutex<(latest: Result?, running: Int?)>((nil, nil))

    /// A search of the bytes received, read one character to a byte by Unicode scalar, its
    /// groups read back as UTF-8.
    init(_ compiled: CompiledRegex, finished: @escaping @Sendable () -> Void) {
        (self.compiled, self.finished, heldLine) = (compiled, finished, nil)
    }

    /// A search of one line or text message, read as UTF-8 text.
    init(_ compiled: CompiledRegex, line: [UInt8], size: Int, unit: String, finished: @escaping @Sendable () -> Void) {
        (self.compiled, self.finished, heldLine) = (compiled, finished, (line, size, unit))
    }

    /// What is known of the buffer's first `limit` bytes, a window that only grows: see
    /// `result(for:bytes:)`.
    func resultForWindow(of buffer: ByteBuffer, limit: Int) -> Result? {
        let (text, count) = window.withLock { window in
            window.update(from: buffer, limit: limit)
            return (window.text, window.count)
        }
        return result(for: text, bytes: count)
    }

    /// What is known of the line held: read as UTF-8 text, or, when it is not UTF-8, one
    /// character to a byte, so a group over its binary bytes keeps them exactly.
    func resultForLine() -> Result? {
        guard let heldLine else { return nil }
        return result(for: Self.text(of: heldLine.bytes).text, bytes: heldLine.bytes.count)
    }

    /// A line's bytes as the text a regex reads: UTF-8, or one character to a byte (U+0000 to
    /// U+00FF, `readsBytes`) when they are not UTF-8.
    static func text(of line: [UInt8]) -> (text: String, readsBytes: Bool) {
        if let text = String(validating: line, as: UTF8.self) { return (text, false) }
        return (String(String.UnicodeScalarView(line.map { Unicode.Scalar($0) })), true)
    }

    /// The first match of `compiled` in one line or message, read as `text(of:)` says.
    static func firstMatch(_ compiled: CompiledRegex, inLine line: [UInt8]) -> Found? {
        let (text, readsBytes) = text(of: line)
        return firstMatch(compiled, in: text, readsBytes: readsBytes)
    }

    /// What is known of `text`, made of `bytes` bytes: a match or none, at once for a short
    /// text; otherwise the latest finished search's result, starting a search of `text` when
    /// none runs and that result covers fewer bytes. Nil until one finished.
    private func result(for text: @autoclosure () -> String, bytes: Int) -> Result? {
        let readsBytes = heldLine.map { String(validating: $0.bytes, as: UTF8.self) == nil } ?? true
        if bytes <= Self.inlineLimit { return Result(bytes: bytes, found: Self.firstMatch(compiled, in: text(), readsBytes: readsBytes)) }
        return searches.withLock { searches in
            if searches.running == nil, (searches.latest?.bytes ?? -1) < bytes {
                searches.running = bytes
                let text = text()
                SearchThreads.shared.run { [self] in
                    let found = Self.firstMatch(compiled, in: text, readsBytes: readsBytes)
                    self.searches.withLock { $0 = (Result(bytes: bytes, found: found), nil) }
                    finished()
                }
            }
            return searches.latest
        }
    }

    /// How many bytes the search under way covers; nil when none runs.
    var searching: Int? { searches.withLock { $0.running } }

    /// The first match of `compiled` in `text`. `readsBytes`: the text has one character to a
    /// byte, searched by Unicode scalar, its groups taken back byte for byte; otherwise it is
    /// UTF-8 text, its groups taken as their UTF-8 bytes.
    static func firstMatch(_ compiled: CompiledRegex, in text: String, readsBytes: Bool) -> Found? {
        guard let match = try? (readsBytes ? compiled.scalarRegex : compiled.regex).firstMatch(in: text) else { return nil }
        var captures: [String: [UInt8]] = [:]
        for name in compiled.groups {
            guard let substring = match.output[name]?.substring else { continue }
            captures[name] = readsBytes ? substring.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } : Array(substring.utf8)
        }
        let scalars = text.unicodeScalars
        return Found(length: scalars.distance(from: scalars.startIndex, to: match.range.upperBound), captures: captures)
    }
}
