/// Where two byte sequences first differ, for an expectation about megabytes; nil when equal.
/// `#expect(a == b)` renders both operands when it fails, which takes minutes for megabytes.
func firstDifference(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
    guard actual != expected else { return nil }
    let index = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, expected.count)
    return "\(actual.count) bytes against \(expected.count), first differing at byte \(index)"
}
