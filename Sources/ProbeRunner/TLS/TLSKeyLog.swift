import FoundationEssentials
import NIOCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The TLS secrets of a scenario's connections, in the NSS key log format (`SSLKEYLOGFILE`):
/// kept in memory while the scenario captures, for decrypting its own capture and for the
/// NAME.keys written 0600 beside a kept pcap (without a capture nothing needs them, and a soak
/// of a million handshakes keeps none); appended as they come to `$SSLKEYLOGFILE` when that is
/// set. Never reported.
final class TLSKeyLog: Sendable {
    private let lines = Mutex<[String]>([])
    private let keeping = Atomic<Bool>(false)
    /// `$SSLKEYLOGFILE`, when set.
    private let sharedFile: String?

    init(environment: [String: String]) {
        sharedFile = environment["SSLKEYLOGFILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The process's `$SSLKEYLOGFILE`, read once: every scenario makes a key log, and reading
    /// the environment into a dictionary each time was 3% of a run of short scenarios.
    private static let processEnvironment = ["SSLKEYLOGFILE": ProcessInfo.processInfo.environment["SSLKEYLOGFILE"] ?? ""]

    /// A key log appending to the process's `$SSLKEYLOGFILE`, when set.
    convenience init() {
        self.init(environment: Self.processEnvironment)
    }

    /// Takes one line from the TLS layer's key log callback.
    func add(_ buffer: ByteBuffer) {
        let line = String(buffer: buffer).trimmingTrailingNewlines
        if keeping.load(ordering: .acquiring) { lines.withLock { $0.append(line) } }
        if let sharedFile { Self.append(line + "\n", to: sharedFile) }
    }

    /// From now on, keeps the lines (the scenario captures).
    func keepLines() {
        keeping.store(true, ordering: .releasing)
    }

    var isEmpty: Bool { lines.withLock { $0.isEmpty } }

    /// Every line so far, for decryption.
    var all: [String] { lines.withLock { $0 } }

    /// Writes the lines to `path` (0600, replacing nothing: a file there already is an error).
    func write(to path: String) throws {
        let text = all.map { $0 + "\n" }.joined()
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw KeyLogError(path: path, code: errno) }
        defer { close(fd) }
        let written = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        guard written == text.utf8.count else { throw KeyLogError(path: path, code: errno) }
    }

    /// Appends to the user's key log file, made 0600 when missing (other programs append too,
    /// so each line goes in one write).
    private static func append(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    struct KeyLogError: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "cannot write the TLS keys to \(path): \(String(cString: strerror(code)))" }
    }
}

private extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
