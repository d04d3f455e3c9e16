import ProbeRunner

/// Where tcpprobe's WebSocket suites are: `Scenarios/NAME` here, else the one a release
/// installs beside its `bin/`.
package enum AutobahnSuite {
    /// The folder of suite `name` (websocket-server, websocket-client).
    package static func folder(_ name: String) throws -> String {
        let found = ShippedSuite.folder(name)
        guard let folder = found.folder else {
            throw AutobahnError("cannot find the suite: neither \(found.lookedAt.joined(separator: " nor ")); name it with --suite")
        }
        return folder
    }
}
