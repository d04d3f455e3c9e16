extension Int {
    /// The number with its noun, singular for one: `1.counted("byte")` is "1 byte",
    /// `3.counted("line")` "3 lines". For nouns whose plural adds an s.
    package func counted(_ noun: String) -> String {
        self == 1 ? "1 \(noun)" : "\(self) \(noun)s"
    }
}
