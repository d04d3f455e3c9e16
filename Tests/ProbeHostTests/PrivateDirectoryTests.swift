import Foundation
import Glibc
@testable import ProbeHost
import Testing

/// The folder captures go to: only its owner's.
struct PrivateDirectoryTests {
    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func aMissingFolderIsMade0700AndAnOpenOneTightenedOnlyWhenAsked() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-privdir-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try PrivateDirectory.prepare(base + "/a/b/pcaps", tightened: false)
        #expect(try mode(base + "/a/b/pcaps") == 0o700)
        try PrivateDirectory.prepare(base + "/a/b/pcaps", tightened: true)
        try FileManager.default.createDirectory(atPath: base + "/open", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try PrivateDirectory.prepare(base + "/open", tightened: false)
        #expect(try mode(base + "/open") == 0o755, "a folder the user named is left as they made it")
        try PrivateDirectory.prepare(base + "/open", tightened: true)
        #expect(try mode(base + "/open") == 0o700)
    }

    @Test func aSymlinkOrAFileIsRefused() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-privdir-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/real")
        let link = #expect(throws: PrivateDirectory.Refused.self) { try PrivateDirectory.prepare(base + "/link", tightened: true) }
        #expect(link?.reason.hasPrefix("it is a symbolic link") == true)
        FileManager.default.createFile(atPath: base + "/file", contents: Data())
        let file = #expect(throws: PrivateDirectory.Refused.self) { try PrivateDirectory.prepare(base + "/file", tightened: true) }
        #expect(file?.reason == "it is not a folder")
    }

    @Test(.root) func anotherUsersFolderIsRefused() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-privdir-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try #require(chown(base, 65534, 65534) == 0)
        let refused = #expect(throws: PrivateDirectory.Refused.self) { try PrivateDirectory.prepare(base, tightened: true) }
        #expect(refused?.reason.hasPrefix("it belongs to uid 65534") == true, "\(String(describing: refused))")
    }

    @Test func theDefaultIsTheRuntimeFolderElseOnePerUserInTmp() {
        #expect(PrivateDirectory.defaultPath(named: "tcpprobe", environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/tcpprobe")
        #expect(PrivateDirectory.defaultPath(named: "tcpprobe", environment: ["TMPDIR": "/var/tmp"]) == "/tmp/tcpprobe-\(geteuid())")
    }
}
