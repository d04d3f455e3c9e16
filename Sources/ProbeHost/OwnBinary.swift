import FoundationEssentials

/// Where the running binary is: its folder (`bin/` in a release, whose neighbours a subject is
/// looked for among), and the folder a release unpacks to above it (Scenarios/, docs/, VERSION).
package enum OwnBinary {
    /// The running binary's folder, symlinks resolved.
    package static var folder: URL {
        URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The folder above `folder`: a release's top.
    package static var release: URL { folder.deletingLastPathComponent() }
}
