import Synchronization

/// The included files a catalog's scenarios share, each read and parsed once: the hundred and
/// forty-seven scenarios of the HTTP/2 suite include one file, which was parsed each time.
/// Loads on several threads share it (a catalog loads its files on every core); two that
/// meet a file at once may both parse it, and the second's copy replaces the first's.
package final class ParsedIncludes: Sendable {
    private let files = Mutex<[String: ParsedFile]>([:])

    package init() {}

    /// The file at `path` as parsed before, if it was.
    subscript(path: String) -> ParsedFile? {
        get { files.withLock { $0[path] } }
        set { files.withLock { $0[path] = newValue } }
    }
}
