import FoundationEssentials
import ProbeHost

/// Where a suite tcpprobe ships is: `Scenarios/NAME` here, else the one a release installs
/// beside its `bin/`, else the one of the package a binary built from source was built in.
package enum ShippedSuite {
    /// The folder of suite `name` (websocket-server, http2-server, …); nil when no place has
    /// it, with the places looked at.
    package static func folder(_ name: String) -> (folder: String?, lookedAt: [String]) {
        let places = ["Scenarios/" + name, OwnBinary.release.appending(path: "Scenarios/" + name).path(percentEncoded: false)]
            + (OwnBinary.sourcePackage.map { [$0.appending(path: "Scenarios/" + name).path(percentEncoded: false)] } ?? [])
        return (places.first { FileManager.default.fileExists(atPath: $0) }, places)
    }

    /// A case's id in a shipped suite: its scenario title's first word (`6.4.1 text message …`,
    /// `http2/6.9.1/3 Sends …`).
    package static func caseID(ofTitle title: String) -> String {
        String(title.prefix { $0 != " " })
    }
}
