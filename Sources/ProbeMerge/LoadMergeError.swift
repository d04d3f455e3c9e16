/// Why part reports do not make one load: a usage error (exit 2) naming the files.
package enum LoadMergeError: Error, Equatable, CustomStringConvertible {
    /// A file that could not be read, in the reader's words (which name the file).
    case cannotRead(String)
    case unreadable(file: String, why: String)
    case notAPart(file: String)
    case partsDisagree(file: String, parts: Int, otherFile: String, otherParts: Int)
    case partTwice(part: String, files: [String])
    case partsMissing([Int], of: Int)
    case differentScenarios(file: String, otherFile: String, what: String)

    package var description: String {
        switch self {
        case .cannotRead(let why): why
        case .unreadable(let file, let why): "\(file): not a tcpprobe JSON report: \(why)"
        case .notAPart(let file): "\(file): not the report of a part (run with --part K/N)"
        case .partsDisagree(let file, let parts, let otherFile, let otherParts):
            "\(file) is a part of \(parts), \(otherFile) of \(otherParts): parts of one load agree on N"
        case .partTwice(let part, let files): "part \(part) is given twice: \(files.joined(separator: " and "))"
        case .partsMissing(let missing, let count):
            "part\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing: merge takes all \(count) parts"
        case .differentScenarios(let file, let otherFile, let what): "\(file) and \(otherFile) are parts of different loads: \(what)"
        }
    }
}
