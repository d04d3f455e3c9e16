import Foundation
import Testing

/// `tcpprobe fmt`: rewrites in place keeping permissions, `--check` prints a diff and exits 1,
/// a file with errors is left as it is (exit 2), `-` filters standard input.
@Suite struct FormatCommandTests {
    static let messy = "connect 127.0.0.1:9 ;send line   \"a\"\nrepeat 2 {  expect any }\n"
    static let canonical = "connect 127.0.0.1:9\nsend line \"a\"\nrepeat 2 {\n  expect any\n}\n"

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func checkPrintsADiffAndChangesNothing() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.scn")
        try Self.messy.write(to: file, atomically: true, encoding: .utf8)
        try Self.canonical.write(to: folder.appendingPathComponent("b.inc"), atomically: true, encoding: .utf8)

        let check = try await ProbeProcess.run(["fmt", "--check", folder.path])
        #expect(check.status == 1)
        #expect(check.stdout == """
            --- a/\(file.path)
            +++ b/\(file.path)
            @@ -1,2 +1,5 @@
            -connect 127.0.0.1:9 ;send line   "a"
            -repeat 2 {  expect any }
            +connect 127.0.0.1:9
            +send line "a"
            +repeat 2 {
            +  expect any
            +}

            """)
        #expect(check.stderr.contains("1 file would be reformatted, 1 unchanged"))
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.messy)
    }

    @Test func rewritesInPlaceKeepingPermissions() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.scn")
        try Self.messy.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)

        let format = try await ProbeProcess.run(["fmt", file.path])
        #expect(format.status == 0, "\(format.stderr)")
        #expect(format.stderr.contains("1 file reformatted, 0 unchanged"))
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.canonical)
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        let again = try await ProbeProcess.run(["fmt", "--check", file.path])
        #expect(again.status == 0 && again.stdout.isEmpty)
    }

    @Test func leavesAFileWithErrorsAsItIs() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.scn"), good = folder.appendingPathComponent("good.scn")
        let badText = "send   line \"a\"\nconnect 127.0.0.1:80 timout 1s\n"
        try badText.write(to: bad, atomically: true, encoding: .utf8)
        try Self.messy.write(to: good, atomically: true, encoding: .utf8)

        let format = try await ProbeProcess.run(["fmt", bad.path, good.path])
        #expect(format.status == 2)
        #expect(format.stderr.contains("\(bad.path):2:22: error:"))
        #expect(format.stderr.contains("^~~~~~"))
        #expect(format.stderr.contains("1 file reformatted, 0 unchanged, 1 with errors"))
        #expect(try String(contentsOf: bad, encoding: .utf8) == badText)
        #expect(try String(contentsOf: good, encoding: .utf8) == Self.canonical)
    }

    @Test func formatsStandardInputToStandardOutput() async throws {
        let format = try await ProbeProcess.run(["fmt", "-"], input: Self.messy)
        #expect(format.status == 0)
        #expect(format.stdout == Self.canonical)
        #expect(format.stderr.isEmpty)
    }

    @Test func theConformanceSuiteIsInTheCanonicalLayout() async throws {
        let root = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()
        let check = try await ProbeProcess.run(["fmt", "--check", "Scenarios"], in: root)
        #expect(check.status == 0, "run tcpprobe fmt Scenarios:\n\(check.stdout)")
    }
}
