import Dispatch

extension Array where Element: Sendable {
    /// `transform` of each element, in order, on every core at once when there are at least
    /// `threshold` elements (fewer do not pay for the threads), else one after another.
    package func concurrentMap<Mapped: Sendable>(from threshold: Int, _ transform: @Sendable (Element) -> Mapped) -> [Mapped] {
        guard count >= threshold else { return map(transform) }
        var results = [Mapped?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { buffer in
            // Each iteration writes its own element only.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: count) { slots[$0] = transform(self[$0]) }
        }
        return results.map { $0! }
    }
}
