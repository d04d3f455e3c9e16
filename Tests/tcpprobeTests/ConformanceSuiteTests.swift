import Foundation
import TestSupport
import Testing

/// The conformance suite in Scenarios/ against linechat: it passes on every transport, and
/// every bug linechat can plant makes it fail (the mutation score).
@Suite(.serialized, .heavy) struct ConformanceSuiteTests {
    static let root = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()
    static let scenarios = root.appendingPathComponent("Scenarios").path

    /// Each bug linechat can plant, and the variable that plants it where it can go: `fault`
    /// for the server, `client_fault` for the client (`linechat faults` says which).
    static func plantings() async -> [(fault: String, variable: String)] {
        let linechat = ProbeProcess.binary.deletingLastPathComponent().appendingPathComponent("linechat")
        guard let output = try? await ProbeProcess.run(["faults"], executable: linechat) else { return [] }
        return output.stdout.split(separator: "\n").flatMap { row -> [(fault: String, variable: String)] in
            let columns = row.split(separator: "\t").map(String.init)
            guard columns.count >= 2 else { return [] }
            return columns[1].split(separator: ",").map { (columns[0], $0 == "connect" ? "client_fault" : "fault") }
        }
    }

    @Test(arguments: ["bsd", "dispatch", "nio"])
    func theSuitePassesOnEveryTransport(_ transport: String) async throws {
        let output = try await ProbeProcess.run(["run", "--var", "transport=\(transport)", Self.scenarios])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("15 passed, 0 failed"))
    }

    @Test func everyPlantedFaultIsCaught() async throws {
        let plantings = await Self.plantings()
        #expect(plantings.filter { $0.variable == "fault" }.count >= 9, "linechat plants at least the nine classic bugs in its server")
        #expect(plantings.filter { $0.variable == "client_fault" }.count >= 4, "and the four bugs of reading lines in its client")
        var caught = 0
        for (fault, variable) in plantings {
            let output = try await ProbeProcess.run(["run", "--var", "\(variable)=--fault \(fault)", Self.scenarios])
            let failing = output.stdout.split(separator: "\n").filter { $0.hasPrefix("✘") }
                .compactMap { $0.split(separator: "(").last?.split(separator: ")").first }
            print("\(variable) \(fault): caught by \(failing.joined(separator: " "))")
            #expect(output.status == 1, output.status == 0 ? "\(variable) \(fault) was not caught by any scenario"
                     : "\(variable) \(fault): exit \(output.status)\n\(output.stdout)\(output.stderr)")
            if output.status == 1 { caught += 1 }
        }
        print("mutation score: caught \(caught) of \(plantings.count) planted faults")
        #expect(caught == plantings.count)
    }
}
