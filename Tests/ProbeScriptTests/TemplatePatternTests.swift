import Testing
@testable import ProbeScript

/// `??` in an expected byte string stands for the byte at its own offset in the rendered
/// bytes, however long the `{variable}` values before it are: the rule over values of 0 to 40
/// bytes, one and two variables, text and binary.
@Suite struct TemplatePatternTests {
    private static let here = SourceLocation(file: "t.scn", line: 1, column: 1)

    @Test(arguments: [0, 1, 2, 3, 7, 40])
    func aWildcardStandsAtItsOffsetAfterAVariable(_ length: Int) {
        let value = String(repeating: "v", count: length)
        let template = Template(parts: [.bytes([0x90]), .variable("v", Self.here), .bytes([0x03]), .anyByte(Self.here), .bytes([0x00])])
        let pattern = template.pattern({ $0 == "v" ? value : nil }, bytes: [:])
        #expect(pattern.anyByteAt == [1 + length + 1])
        let before = [0x90] + Array(value.utf8) + [0x03]
        for byte in [0x00, 0x41, 0xFF] as [UInt8] {
            #expect(pattern.matches(before + [byte, 0x00]), "the wildcard takes \(byte) after \(length) bytes")
        }
        // Every other byte stays exact: changing one fails at that very offset.
        for offset in 0..<(before.count + 2) where offset != before.count {
            var wrong = before + [0x41, 0x00]
            wrong[offset] &+= 1
            #expect(pattern.firstDifference(wrong) == offset, "offset \(offset) after \(length) bytes")
        }
    }

    @Test(arguments: [(0, 5), (3, 0), (2, 9)])
    func twoVariablesOfBinaryValuesMoveEachWildcardByTheirLengths(_ first: Int, _ second: Int) {
        let values: [String: [UInt8]] = ["a": [UInt8](repeating: 0xAA, count: first), "b": [UInt8](repeating: 0xBB, count: second)]
        let template = Template(parts: [.anyByte(Self.here), .variable("a", Self.here), .anyByte(Self.here),
                                        .variable("b", Self.here), .anyByte(Self.here)])
        let pattern = template.pattern({ _ in nil }, bytes: values)
        #expect(pattern.anyByteAt == [0, 1 + first, 2 + first + second])
        #expect(pattern.count == 3 + first + second)
    }
}
