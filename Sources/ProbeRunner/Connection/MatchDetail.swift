import ProbeFraming
import ProbeScript

/// What an expect consumed, in the words its log entry uses: text, then a preview of the bytes
/// it introduces, escaped only when the text is read. Most entries of a long run are never
/// kept (see `StepLog`), and escaping a line costs more than matching it.
package struct MatchDetail: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    private let words: String
    private let shown: [UInt8]?
    /// What few details have besides their words and bytes, in an object made only when one
    /// is set: the usual detail, a line's, has none, and an expect copies and lets it go
    /// without taking a header's optional buffer apart.
    private let rare: Rare?

    private final class Rare: Sendable {
        let after: String
        /// A binary message's head and length field, shown apart from its payload.
        let header: FramedHeader?
        let decidedByReset: Bool

        init(after: String, header: FramedHeader?, decidedByReset: Bool) {
            self.after = after
            self.header = header
            self.decidedByReset = decidedByReset
        }
    }

    private var after: String { rare?.after ?? "" }
    private var header: FramedHeader? { rare?.header }

    /// True when the peer's RST decided it (an HTTP/2 error answered by a reset): the RST may
    /// have discarded bytes sent before it, unread, which the capture can show.
    var decidedByReset: Bool {
        get { rare?.decidedByReset ?? false }
        set { self = MatchDetail(words, showing: shown, after: after, header: header, decidedByReset: newValue) }
    }

    /// `words`, then the escaped `bytes` when given, then `after`.
    init(_ words: String, showing bytes: [UInt8]? = nil, after: String = "") {
        self.init(words, showing: bytes, after: after, header: nil, decidedByReset: false)
    }

    private init(_ words: String, showing bytes: [UInt8]?, after: String, header: FramedHeader?, decidedByReset: Bool) {
        self.words = words
        self.shown = bytes
        let plain = after.isEmpty && header == nil && !decidedByReset
        self.rare = plain ? nil : Rare(after: after, header: header, decidedByReset: decidedByReset)
    }

    package init(stringLiteral value: String) {
        self.init(value)
    }

    package init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    package var description: String {
        guard let shown else { return words + after }
        if let header, Self.showsApart(shown, header) { return words + " " + header.describe(payload: shown) + after }
        return words + " " + ByteEscaper.preview(shown) + after
    }

    /// Whether a message is shown with its parts apart, in hex: when its payload or head is
    /// not text.
    static func showsApart(_ payload: [UInt8], _ header: FramedHeader) -> Bool {
        !ByteDiff.isText(payload) || !ByteDiff.isText(header.head)
    }

    /// This detail showing `payload` as a message with `header`: when the payload or the head is
    /// not text, as `message head 20 · length 02 (varint) · payload 00 00`.
    func framed(by header: FramedHeader, payload: [UInt8]) -> MatchDetail {
        MatchDetail(words, showing: payload, after: after, header: header, decidedByReset: false)
    }

    /// This detail with `more` after it.
    func adding(_ more: String) -> MatchDetail {
        MatchDetail(words, showing: shown, after: after + more, header: header, decidedByReset: decidedByReset)
    }

    /// Two details are equal when they read the same.
    package static func == (lhs: MatchDetail, rhs: MatchDetail) -> Bool {
        lhs.description == rhs.description
    }
}
