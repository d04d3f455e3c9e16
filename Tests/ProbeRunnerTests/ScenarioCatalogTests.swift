import Foundation
import ProbeRunner
import ProbeScript
import Testing

struct ScenarioCatalogTests {
    /// A folder of `count` scenarios named `case-00.scn`…, each including the fragment
    /// `shared.scn` (a `.scn` that is not a scenario), and one, `case-03.scn`, with an error.
    static func folder(scenarios count: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "var greeting = \"hello\"\n".write(to: folder.appendingPathComponent("shared.scn"), atomically: true, encoding: .utf8)
        for index in 0..<count {
            let name = String(format: "case-%02d", index)
            let step = index == 3 ? "send line {nobody}" : "send line \"{greeting} \(index)\""
            try "title \"\(name)\"\ninclude \"shared.scn\"\nconnect 127.0.0.1:1\n\(step)\n"
                .write(to: folder.appendingPathComponent(name + ".scn"), atomically: true, encoding: .utf8)
        }
        return folder.path
    }

    /// A folder loads the same on one thread (a few files) as on every core (many): its
    /// scenarios in name order, each with the fragment spliced in; the fragment not a scenario
    /// of its own; the broken file's diagnostic, and it alone left out.
    @Test(arguments: [4, ScenarioCatalog.parallelFrom, 40])
    func aFolderLoadsInNameOrderWithItsFragmentSplicedIn(scenarios count: Int) throws {
        let folder = try Self.folder(scenarios: count)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalog = try ScenarioCatalog.load([folder], variables: [:])
        let expected = (0..<count).filter { $0 != 3 }.map { String(format: "case-%02d", $0) }
        #expect(catalog.scenarios.map(\.title) == expected)
        for scenario in catalog.scenarios {
            #expect(scenario.statements.contains { if case .variable(let name, _) = $0.kind { name.text == "greeting" } else { false } },
                    "\(scenario.title) has the fragment's variable")
        }
        let errors = catalog.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.location.file) == [folder + "/case-03.scn"])
        #expect(errors.first?.message.contains("nobody") == true)
    }
}
