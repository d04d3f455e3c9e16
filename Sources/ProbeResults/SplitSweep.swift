/// The plan of a `split sweep`: which offsets of an N-byte message the scenario is re-run with.
package struct SplitSweep: Sendable, Equatable {
    package var messageLength: Int
    package var offsets: [Int]
    /// True when the message had more split points than the limit, so offsets were sampled.
    package var sampled: Bool

    /// Every offset 1…length-1, or `limit` of them evenly spread (always 1 and length-1) when
    /// there are more: small offsets are where framing bugs live, so the low end is dense.
    package init(messageLength: Int, limit: Int) {
        self.messageLength = messageLength
        let all = max(0, messageLength - 1)
        if all <= limit || limit < 2 {
            offsets = Array(1..<max(1, messageLength)).prefix(max(limit, 0)).map { $0 }
            sampled = all > offsets.count
        } else {
            let dense = min(limit / 2, all)
            var chosen = Set(1...dense)
            let spread = limit - dense
            // Evenly from just past the dense end to the last offset, which is always among them.
            for step in 0..<spread {
                let offset = spread == 1 ? all : dense + 1 + Int((Double(step) / Double(spread - 1)) * Double(all - dense - 1))
                chosen.insert(min(all, offset))
            }
            offsets = chosen.sorted()
            sampled = true
        }
    }
}
