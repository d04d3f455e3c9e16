import Transports

/// The framing bugs of `Fault`, as unframers; the correct framing wraps `LineFraming`.
struct FaultyUnframer: LineUnframer {
    let fault: Fault
    /// The protocol's longest line, which some faults miss.
    let maximumLength: Int
    private var correct: LineFraming
    private var partial: [UInt8] = []

    init(fault: Fault, maximumLength: Int) {
        self.fault = fault
        self.maximumLength = maximumLength
        let limit = switch fault {
        case .noLengthLimit, .refuseAtLineEnd: Int.max
        case .limitOffByOne: maximumLength + 1
        case .limitOneLow: maximumLength - 1
        default: maximumLength
        }
        correct = LineFraming(maximumLength: limit)
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
        case .refuseAtLineEnd:
            let lines = try correct.append(bytes)
            if lines.contains(where: { $0.utf8.count > maximumLength }) { throw LineFraming.Failure.lineTooLong(limit: maximumLength) }
            return lines
        case .crlfAcrossReads:
            return try linesEndedWithinOneRead(Array(bytes))
        case .phantomAtEOF:
            var lines: [String] = []
            for byte in bytes {
                if byte == 10 {
                    if partial.last == 13 { partial.removeLast() }
                    lines.append(String(decoding: partial, as: UTF8.self))
                    partial = []
                } else {
                    partial.append(byte)
                    if partial.count > maximumLength { throw LineFraming.Failure.lineTooLong(limit: maximumLength) }
                }
            }
            return lines
        default:
            return try correct.append(bytes)
        }
    }

    /// The lines of `read` whose CR LF lies wholly within it, the bytes before each joined to
    /// what earlier reads left: a CR that ends one read and the LF that starts the next end nothing.
    private mutating func linesEndedWithinOneRead(_ read: [UInt8]) throws -> [String] {
        var (lines, start, index) = ([String](), 0, 0)
        while index + 1 < read.count {
            if read[index] == 13, read[index + 1] == 10 {
                let line = partial + read[start..<index]
                if line.count > maximumLength { throw LineFraming.Failure.lineTooLong(limit: maximumLength) }
                lines.append(String(decoding: line, as: UTF8.self))
                (partial, index) = ([], index + 2)
                start = index
            } else {
                index += 1
            }
        }
        partial += read[start...]
        if partial.count > maximumLength { throw LineFraming.Failure.lineTooLong(limit: maximumLength) }
        return lines
    }

    mutating func finish() -> [String] {
        guard fault == .phantomAtEOF, !partial.isEmpty else { return correct.finish() }
        defer { partial = [] }
        return [String(decoding: partial, as: UTF8.self)]
    }
}
