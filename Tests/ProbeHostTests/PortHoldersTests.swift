import Foundation
import TestSupport
import Testing
@testable import ProbeHost

/// When a port is taken, the failure names what holds it: each socket's state and process.
@Suite struct PortHoldersTests {
    @Test func boundAndListeningSocketsAreNamedWithTheirProcess() throws {
        let bound = try LoopbackSocket.bound(listening: false)
        defer { close(bound.fd) }
        let listening = try LoopbackSocket.bound(listening: true)
        defer { close(listening.fd) }

        let boundText = try #require(PortHolders.describe(port: bound.port))
        #expect(boundText == "port \(bound.port) now:\n  BOUND (not listening) 127.0.0.1:\(bound.port), pid \(getpid()) (tcpprobe itself)")
        let listeningText = try #require(PortHolders.describe(port: listening.port))
        #expect(listeningText.contains("  LISTEN 127.0.0.1:\(listening.port), pid \(getpid())"), "\(listeningText)")
    }

    @Test func aFreePortHasNoHolders() throws {
        let released = try LoopbackSocket.bound(listening: false)
        close(released.fd)
        #expect(PortHolders.describe(port: released.port) == nil)
    }

    @Test func connectionsAndTimeWaitAreTold() throws {
        let listener = try LoopbackSocket.bound(listening: true)
        let client = try LoopbackSocket.connected(to: listener.port)
        let server = accept(listener.fd, nil, nil)
        try #require(server >= 0)
        let open = try #require(PortHolders.describe(port: listener.port))
        #expect(open.contains("  ESTAB 127.0.0.1:\(listener.port) to 127.0.0.1:"), "\(open)")
        // The server's side closes first, so its end (on the listener's port) waits in TIME-WAIT.
        close(server)
        var byte: UInt8 = 0
        #expect(read(client, &byte, 1) == 0, "the client reads the server's FIN")
        close(client)
        close(listener.fd)
        var text: String?
        Eventually.holdsBlocking(within: .seconds(1), every: .milliseconds(5)) {
            text = PortHolders.describe(port: listener.port)
            return text?.contains("TIME-WAIT") == true
        }
        #expect(text == "port \(listener.port) now:\n  1 in TIME-WAIT, which only a bind without SO_REUSEADDR is refused for")
    }

    @Test func anotherProcessIsNamedByItsCommandLine() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate() }
        // Until the child has exec'd, /proc shows no command line (or the parent's).
        var seen: String?
        Eventually.holdsBlocking(within: .seconds(2)) {
            seen = PortHolders.commandLine(of: sleeper.processIdentifier)
            return seen == "/bin/sleep 30"
        }
        #expect(seen == "/bin/sleep 30")
        #expect(PortHolders.owner(sleeper.processIdentifier) == "pid \(sleeper.processIdentifier) (/bin/sleep 30)")
    }
}
