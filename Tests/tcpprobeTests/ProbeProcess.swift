import Foundation
import TestSupport

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

    /// The `linechat` binary built beside it, the reference subject.
    static let linechat = binary.deletingLastPathComponent().appendingPathComponent("linechat")

    /// What `linechat faults` lists: each fault and where it can be planted (`serve`,
    /// `serve,connect`, `serve --websocket`, `serve --websocket --echo`).
    static func linechatFaults() async throws -> [(fault: String, commands: String)] {
        let output = try await run(["faults"], executable: linechat)
        return output.stdout.split(separator: "\n").compactMap { row in
            let columns = row.split(separator: "\t").map(String.init)
            return columns.count >= 2 ? (columns[0], columns[1]) : nil
        }
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Runs `tcpprobe` (or `executable`) to its end on a thread of its own: swift-testing runs
    /// tests on a pool of one thread per core, and a run of tens of seconds must not hold one.
    /// `input`, when given, is written to the child's standard input through a pipe.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    input: String? = nil, executable: URL = binary) async throws -> Output {
        try await onOwnThread { try runBlocking(arguments, in: directory, environment: environment, input: input, executable: executable) }
    }

    /// Runs `arguments` with `executable` in a new directory that holds `files` (name and text),
    /// and removes the directory afterwards.
    static func run(_ arguments: [String], with files: [String: String], executable: URL = binary) async throws -> Output {
        try await inDirectory(holding: files) { try await run(arguments, in: $0, executable: executable) }
    }

    /// Calls `body` with a new directory that holds `files` (name and text), and removes the
    /// directory afterwards.
    static func inDirectory<Value>(holding files: [String: String], _ body: (URL) async throws -> Value) async throws -> Value {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        return try await body(directory)
    }

    /// Runs `tcpprobe` in `directory` with its stdout and stderr on a new pseudo-terminal, as
    /// at a user's terminal (util-linux's `script`, `Requirement.script`), and returns its exit
    /// status and every byte the terminal received.
    static func runOnTerminal(_ arguments: [String], in directory: URL) async throws -> (status: Int32, screen: String) {
        let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let output = try await run(["--quiet", "--return", "--command", quoted.joined(separator: " "), "/dev/null"], in: directory,
                                   environment: ["TERM": "xterm"], input: "", executable: URL(fileURLWithPath: Requirement.script.path ?? "/usr/bin/script"))
        return (output.status, output.stdout)
    }

    /// Starts `tcpprobe ARGUMENTS` in `directory` without waiting for it, its output discarded:
    /// for the tests that signal a run while it runs.
    static func start(_ arguments: [String], in directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for `process` to end, on a thread of its own.
    static func waitUntilExit(_ process: Process) async {
        _ = try? await onOwnThread { process.waitUntilExit() }
    }

    private static func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    private static func runBlocking(_ arguments: [String], in directory: URL?, environment: [String: String],
                                    input: String?, executable: URL) throws -> Output {
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
        let stdin = input.map { _ in Pipe() }
        if let stdin { process.standardInput = stdin }
        try process.run()
        if let input, let stdin {
            DispatchQueue.global().async {
                stdin.fileHandleForWriting.write(Data(input.utf8))
                try? stdin.fileHandleForWriting.close()
            }
        }
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
