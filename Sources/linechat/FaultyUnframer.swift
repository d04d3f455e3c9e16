import Transports

/// The framing bugs of `Fault`, as unframers; the correct framing wraps `LineFraming`.
struct FaultyUnframer: LineUnframer {
    let fault: Fault
    private var correct: LineFraming
    private var partial: [UInt8] = []

    init(fault: Fault, maximumLength: Int) {
        self.fault = fault
        correct = LineFraming(maximumLength: fault == .noLengthLimit ? Int.max : fault == .limitOffByOne ? maximumLength + 1 : maximumLength)
    }

    mutating func append(_ bytes: some Collection<UInt8>) throws -> [String] {
        switch fault {
        case .linePerRead:
            var read = Array(bytes)
            while read.last == 10 || read.last == 13 { read.removeLast() }
            return [String(decoding: read, as: UTF8.self)]
        case .noPartialBuffering:
            let lines = try correct.append(bytes)
            correct = LineFraming(maximumLength: correct.maximumLength) // forgets the partial line
            return lines
        case .phantomAtEOF:
            var lines: [String] = []
            for byte in bytes {
                if byte == 10 {
                    if partial.last == 13 { partial.removeLast() }
                    lines.append(String(decoding: partial, as: UTF8.self))
                    partial = []
                } else {
                    partial.append(byte)
                    if partial.count > correct.maximumLength { throw LineFraming.Failure.lineTooLong(limit: correct.maximumLength) }
                }
            }
            return lines
        default:
            return try correct.append(bytes)
        }
    }

    mutating func finish() -> [String] {
        guard fault == .phantomAtEOF, !partial.isEmpty else { return correct.finish() }
        defer { partial = [] }
        return [String(decoding: partial, as: UTF8.self)]
    }
}
