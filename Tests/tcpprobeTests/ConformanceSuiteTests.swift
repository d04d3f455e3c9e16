import Foundation
import Testing

/// The conformance suite in Scenarios/ against linechat: it passes on every transport, and
/// every bug linechat can plant makes it fail (the mutation score).
@Suite(.serialized) struct ConformanceSuiteTests {
    static let root = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()
    static let scenarios = root.appendingPathComponent("Scenarios").path

    static func faults() async -> [String] {
        let linechat = ProbeProcess.binary.deletingLastPathComponent().appendingPathComponent("linechat")
        guard let output = try? await ProbeProcess.run(["faults"], executable: linechat) else { return [] }
        return output.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
    }

    @Test(arguments: ["bsd", "dispatch", "nio"])
    func theSuitePassesOnEveryTransport(_ transport: String) async throws {
        let output = try await ProbeProcess.run(["run", "--var", "transport=\(transport)", Self.scenarios])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("12 passed, 0 failed"))
    }

    @Test func everyPlantedFaultIsCaught() async throws {
        let faults = await Self.faults()
        #expect(faults.count >= 9, "linechat plants at least the nine classic bugs")
        var caught: [String] = []
        for fault in faults {
            let output = try await ProbeProcess.run(["run", "--var", "fault=--fault \(fault)", Self.scenarios])
            let failing = output.stdout.split(separator: "\n").filter { $0.hasPrefix("✘") }
                .compactMap { $0.split(separator: "(").last?.split(separator: ")").first }
            print("fault \(fault): caught by \(failing.joined(separator: " "))")
            #expect(output.status == 1, output.status == 0 ? "fault \(fault) was not caught by any scenario"
                     : "fault \(fault): exit \(output.status)\n\(output.stdout)\(output.stderr)")
            if output.status == 1 { caught.append(fault) }
        }
        print("mutation score: caught \(caught.count) of \(faults.count) planted faults")
        #expect(caught.count == faults.count)
    }
}
