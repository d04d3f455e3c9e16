import ProbeScript
import ProbeResults

/// Why a framing setting, or a message framed by it, failed once its variables were filled in
/// (the parser refuses the same mistakes written as literals).
enum FramingFailure: FailureReason, Equatable {
    case emptyDelimiter
    /// `send message … head …` or `expect message … head …` under `set framing lines`.
    case headUnderLines
    case wrongHeadSize(got: Int, header: String, takes: Int)
    case headTooLong(Int)
    case badLengthWidth(Int)
    case badMaxMessage(Int)
    /// The message does not fit its length field: the codec's words.
    case cannotFrame(String)

    var description: String {
        switch self {
        case .emptyDelimiter: "the delimiter is empty once its variables are filled in"
        case .headUnderLines: "a message has a head under set framing length|varint … after N, not under lines"
        case .wrongHeadSize(let got, let header, let takes): "the head is \(got) bytes, and \(header) takes \(takes)"
        case .headTooLong(let after): "at most \(LengthSetting.longestHead) head bytes come before a length field, not \(after)"
        case .badLengthWidth(let bytes): "a length field is 1, 2, 3, 4 or 8 bytes, not \(bytes)"
        case .badMaxMessage(let size): "max-message takes 1 byte to 1GiB, not \(size)"
        case .cannotFrame(let why): why
        }
    }
}
