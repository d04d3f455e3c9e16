/// Durations as reports print them: `250ms`, `1.502s`, `2m03s`.
public enum DurationFormat {
    public static func short(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        if total < 0.001 { return String(Int((total * 1_000_000).rounded())) + "us" }
        if total < 1 { return trim(total * 1000) + "ms" }
        if total < 60 { return trim(total) + "s" }
        let minutes = Int(total / 60)
        let rest = Int(total) - minutes * 60
        return "\(minutes)m" + (rest < 10 ? "0" : "") + "\(rest)s"
    }

    /// Seconds with millisecond precision, for logs: `+1.502s`.
    public static func offset(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let millis = Int(attoseconds / 1_000_000_000_000_000)
        return "+\(seconds)." + String(repeating: "0", count: 3 - String(millis).count) + "\(millis)s"
    }

    private static func trim(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
