import FoundationEssentials

/// Where the running binary is: its folder (`bin/` in a release, whose neighbours a subject is
/// looked for among), the folder a release unpacks to above it (Scenarios/, docs/, VERSION),
/// and for a binary built from source, the package it was built in.
package enum OwnBinary {
    /// The running binary's folder, symlinks resolved.
    package static var folder: URL {
        URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The folder above `folder`: a release's top.
    package static var release: URL { folder.deletingLastPathComponent() }

    /// The package a binary built by SwiftPM was built in: the folder holding the `.build`
    /// (or `.build-NAME`) folder it is under; nil for a binary elsewhere.
    package static var sourcePackage: URL? {
        var package = folder
        let components = package.pathComponents
        guard let build = components.lastIndex(where: { $0 == ".build" || $0.hasPrefix(".build-") }) else { return nil }
        for _ in build..<components.count { package.deleteLastPathComponent() }
        return package
    }
}
