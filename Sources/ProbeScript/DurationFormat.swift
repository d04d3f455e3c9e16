/// Durations as reports print them: `250ms`, `1.502s`, `2m03s`.
package enum DurationFormat {
    package static func short(_ duration: Duration) -> String {
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
    package static func offset(_ duration: Duration) -> String {
        "+" + seconds(duration) + "s"
    }

    /// Seconds with millisecond precision (or `places` decimals), as reports want them: `1.502`.
    package static func seconds(_ duration: Duration, places: Int = 3) -> String {
        fixed(Double(duration / .microseconds(1)) / 1e6, places: places)
    }

    /// `value` with exactly `places` decimals, rounded: `fixed(0.0000015, places: 6)` is `0.000002`.
    package static func fixed(_ value: Double, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let units = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(units % scale)
        let sign = value < 0 && units > 0 ? "-" : ""
        return sign + "\(units / scale)" + (places > 0 ? "." + String(repeating: "0", count: places - fraction.count) + fraction : "")
    }

    private static func trim(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
