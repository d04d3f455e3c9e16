import ProbeScript
import Testing

struct ScenarioStatementsTests {
    static let text = """
        connect 127.0.0.1:1
        parallel 2 {
          repeat 3 {
            send line "a"
            non-strict {
              expect line "b"
            }
          }
        }
        close
        """

    static func scenario() throws -> Scenario {
        try #require(ScenarioLoader.load("s.scn") { _ in text }.scenario)
    }

    /// Every statement, depth first, blocks entered where they stand.
    @Test func allStatementsAreDepthFirst() throws {
        let texts = try Self.scenario().allStatements.map { $0.text.split(separator: " ").first.map(String.init) ?? "" }
        #expect(texts == ["connect", "parallel", "repeat", "send", "non-strict", "expect", "close"])
    }

    /// A statement three blocks deep is found, the walk stops at the first one taken, and a
    /// statement that is not there is not found.
    @Test func containsStatementLooksInsideBlocksAndStopsAtTheFirst() throws {
        let scenario = try Self.scenario()
        var asked = 0
        #expect(scenario.containsStatement { asked += 1; if case .expect = $0.kind { return true } else { return false } })
        #expect(asked == 6)
        #expect(!scenario.containsStatement { if case .listen = $0.kind { true } else { false } })
    }
}
