/// Parsing of the numeric literals of the language: counts, durations, sizes and rates.
package enum Quantity {
    /// A whole number such as `100`.
    package static func integer(_ text: String) -> Int? {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }

    /// A whole number with an optional sign: `-4`, `+1`, `3`.
    package static func signedInteger(_ text: String) -> Int? {
        guard let sign = text.first, sign == "-" || sign == "+" else { return integer(text) }
        return integer(String(text.dropFirst())).map { sign == "-" ? -$0 : $0 }
    }

    /// `500us`, `250ms`, `2s`, `1.5s`, `1m`, `1h`.
    package static func duration(_ text: String) -> Duration? {
        guard let (number, unit) = splitNumber(text) else { return nil }
        let nanosecondsPerUnit: Double
        switch unit {
        case "" where number == 0: return .zero // `every 0`: no unit needed for nothing
        case "ns": nanosecondsPerUnit = 1
        case "us", "µs": nanosecondsPerUnit = 1_000
        case "ms": nanosecondsPerUnit = 1_000_000
        case "s": nanosecondsPerUnit = 1_000_000_000
        case "m": nanosecondsPerUnit = 60_000_000_000
        case "h": nanosecondsPerUnit = 3_600_000_000_000
        default: return nil
        }
        let nanoseconds = number * nanosecondsPerUnit
        guard nanoseconds.isFinite, nanoseconds < 1e18 else { return nil }
        return .nanoseconds(Int64(nanoseconds.rounded()))
    }

    package static let durationHint = "durations look like 500us, 250ms, 2s, 1.5s, 1m"

    /// `duration` written back as `duration` reads it, in the largest unit that holds it
    /// exactly: `1h`, `250ms`, `1500us`.
    package static func text(of duration: Duration) -> String {
        let nanoseconds = duration / .nanoseconds(1)
        let units: [(String, Double)] = [("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)]
        for (unit, size) in units where nanoseconds != 0 && nanoseconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int64(nanoseconds / size))\(unit)"
        }
        return "\(Int64(nanoseconds))ns"
    }

    /// `512`, `512B`, `4KiB`, `1MiB`, `1GiB`, `4KB`, `1MB`.
    package static func size(_ text: String) -> Int? {
        guard let (number, unit) = splitNumber(text) else { return nil }
        let multiplier: Double
        switch unit {
        case "", "B": multiplier = 1
        case "KiB": multiplier = 1024
        case "MiB": multiplier = 1024 * 1024
        case "GiB": multiplier = 1024 * 1024 * 1024
        case "KB", "kB": multiplier = 1000
        case "MB": multiplier = 1_000_000
        case "GB": multiplier = 1_000_000_000
        default: return nil
        }
        let bytes = number * multiplier
        guard bytes.isFinite, bytes < 1e15, bytes == bytes.rounded() else { return nil }
        return Int(bytes)
    }

    package static let sizeHint = "sizes look like 512, 4KiB, 1MiB, 1GiB"

    /// `10KiB/s`: bytes per second.
    package static func rate(_ text: String) -> Int? {
        guard text.hasSuffix("/s"), let bytes = size(String(text.dropLast(2))), bytes > 0 else { return nil }
        return bytes
    }

    package static let rateHint = "rates look like 512/s, 64KiB/s, 1MiB/s"

    /// `10%`, `0.5%`, `100%`: a share of the packets, from 0 to 100.
    package static func percent(_ text: String) -> Double? {
        guard text.hasSuffix("%"), let (number, unit) = splitNumber(String(text.dropLast())), unit.isEmpty, number <= 100 else { return nil }
        return number
    }

    package static let percentHint = "shares look like 10%, 0.5%, 100%"

    /// Splits `1.5ms` into (1.5, "ms"); nil when the text does not start with a number.
    private static func splitNumber(_ text: String) -> (Double, String)? {
        let numberPart = text.prefix { $0.isASCIIDigit || $0 == "." }
        guard !numberPart.isEmpty, numberPart.first != ".", numberPart.filter({ $0 == "." }).count <= 1,
              let number = Double(numberPart) else { return nil }
        return (number, String(text.dropFirst(numberPart.count)))
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
