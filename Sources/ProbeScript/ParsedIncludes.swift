/// The included files a catalog's scenarios share, each read and parsed once: the hundred and
/// forty-seven scenarios of the HTTP/2 suite include one file, which was parsed each time. Used
/// by one loader at a time.
package final class ParsedIncludes {
    private var files: [String: ParsedFile] = [:]

    package init() {}

    /// The file at `path` as parsed before, if it was.
    subscript(path: String) -> ParsedFile? {
        get { files[path] }
        set { files[path] = newValue }
    }
}
