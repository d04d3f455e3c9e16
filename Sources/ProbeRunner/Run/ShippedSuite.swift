import FoundationEssentials
import ProbeHost

/// Where a suite tcpprobe ships is: `Scenarios/NAME` here, else the one a release installs
/// beside its `bin/`.
package enum ShippedSuite {
    /// The folder of suite `name` (websocket-server, http2-server, …); nil when neither place
    /// has it, with the two places looked at.
    package static func folder(_ name: String) -> (folder: String?, lookedAt: [String]) {
        let here = "Scenarios/" + name
        if FileManager.default.fileExists(atPath: here) { return (here, [here]) }
        let installed = OwnBinary.release.appending(path: "Scenarios/" + name).path(percentEncoded: false)
        return (FileManager.default.fileExists(atPath: installed) ? installed : nil, [here, installed])
    }

    /// A case's id in a shipped suite: its scenario title's first word (`6.4.1 text message …`,
    /// `http2/6.9.1/3 Sends …`).
    package static func caseID(ofTitle title: String) -> String {
        String(title.prefix { $0 != " " })
    }
}
