/// `--shard K/N`: the K-th of N disjoint slices of a stable list, for CI matrices.
package struct Shard: Sendable, Equatable {
    package let index: Int
    package let count: Int

    /// Parses `K/N` with 1 <= K <= N.
    package init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Every N-th element starting at K-1: the shards together take each element exactly once.
    package func select<Element>(_ elements: [Element]) -> [Element] {
        elements.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
