import ProbeScript

/// What an expect consumed, in the words its log entry uses: text, then a preview of the bytes
/// it introduces, escaped only when the text is read. Most entries of a long run are never
/// kept (see `StepLog`), and escaping a line costs more than matching it.
public struct MatchDetail: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    private let words: String
    private let shown: [UInt8]?
    private let after: String

    /// `words`, then the escaped `bytes` when given, then `after`.
    init(_ words: String, showing bytes: [UInt8]? = nil, after: String = "") {
        self.words = words
        self.shown = bytes
        self.after = after
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    public var description: String {
        guard let shown else { return words + after }
        return words + " " + ByteEscaper.preview(shown) + after
    }

    /// This detail with `more` after it.
    func adding(_ more: String) -> MatchDetail {
        MatchDetail(words, showing: shown, after: after + more)
    }

    /// Two details are equal when they read the same.
    public static func == (lhs: MatchDetail, rhs: MatchDetail) -> Bool {
        lhs.description == rhs.description
    }
}
