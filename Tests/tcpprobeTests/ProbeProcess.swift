import Foundation

/// Runs the built `tcpprobe` binary and captures what it prints.
struct ProbeProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `tcpprobe` binary next to this test bundle.
    static let binary: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = exe.deletingLastPathComponent()
        if directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("tcpprobe")
    }()

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    executable: URL = binary) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes at once before waiting, so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let errRead = DispatchGroup()
        DispatchQueue.global().async(group: errRead) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errRead.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
