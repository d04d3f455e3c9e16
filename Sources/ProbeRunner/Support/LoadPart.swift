/// `--part K/N`: the K-th of N parts of one load, run on its own machine. Each `parallel` block
/// runs only the copies that fall to part K, so the N parts run each copy exactly once.
package struct LoadPart: Sendable, Equatable, CustomStringConvertible {
    /// K, from 1.
    package let index: Int
    /// N.
    package let count: Int

    package init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "part \(index)/\(count)")
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 1 <= K <= N.
    package init?(_ text: String) {
        guard let shard = Shard(text) else { return nil }
        self.init(index: shard.index, count: shard.count)
    }

    /// What `--part auto` names, from a Kubernetes Indexed Job: K is `JOB_COMPLETION_INDEX` + 1
    /// and N is `TCPPROBE_PARTS`; why not, naming what is missing or out of range.
    package static func fromEnvironment(_ environment: [String: String]) -> Result<LoadPart, LoadPartError> {
        guard let partsText = environment["TCPPROBE_PARTS"] else { return .failure(.missing("TCPPROBE_PARTS", "the number of parts, N")) }
        guard let parts = Int(partsText), parts >= 1 else { return .failure(.notANumber("TCPPROBE_PARTS", partsText, "1 or more")) }
        guard let indexText = environment["JOB_COMPLETION_INDEX"] else {
            return .failure(.missing("JOB_COMPLETION_INDEX", "the part's index from 0, which a Kubernetes Indexed Job sets"))
        }
        guard let index = Int(indexText), (0..<parts).contains(index) else {
            return .failure(.notANumber("JOB_COMPLETION_INDEX", indexText, "0 to \(parts - 1), as TCPPROBE_PARTS is \(parts)"))
        }
        return .success(LoadPart(index: index + 1, count: parts))
    }

    /// The copies of a block of `copies` that fall to this part, numbered as in the whole load:
    /// the K-th of N ranges as even as whole copies allow.
    package func copies(of copies: Int) -> Range<Int> {
        copies * (index - 1) / count ..< copies * index / count
    }

    package var description: String { "\(index)/\(count)" }
}
