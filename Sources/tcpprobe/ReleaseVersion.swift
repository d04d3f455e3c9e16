import FoundationEssentials
import ProbeHost

/// What `--version` prints: the release's version, from the VERSION file a release installs
/// beside its `bin/` (release/build writes it), or "development build" for a binary built
/// from the source.
enum ReleaseVersion {
    static let current: String = {
        let file = OwnBinary.release.appending(path: "VERSION")
        guard let bytes = try? WholeFile.bytes(atPath: file.path(percentEncoded: false)),
              let version = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first
        else { return "development build" }
        return String(version)
    }()
}
