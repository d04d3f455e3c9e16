import Foundation

/// The reference protocol's client (docs/reference-protocol.md) over any transport, wired to
/// the process's standard streams: it joins as `name`, sends each line of standard input,
/// prints each line it receives, and ends when its input ends or the server closes. An adapter
/// that puts a transport through the line suites is a connecting transport and this.
public struct ChatClient: Sendable {
    /// How a session ended, and the exit status the protocol gives it.
    public enum Ending: Sendable {
        /// The input ended or the server closed: exit 0.
        case closed
        /// A received line passed the maximum: the client reset the connection; exit 1.
        case refusedALine(any Error)
        /// The transport stopped with an error: exit 1.
        case failed(any Error)

        public var exitStatus: Int32 {
            if case .closed = self { return 0 }
            return 1
        }
    }

    public let transport: any TCPTransport
    public let name: String
    /// Breaches of the protocol to make on purpose: of the `ChatQuirks`, a client makes `lfOnly`.
    public let quirks: ChatQuirks

    /// `transport` not yet started.
    public init(transport: any TCPTransport, name: String, quirks: ChatQuirks = []) {
        self.transport = transport
        self.name = name
        self.quirks = quirks
    }

    /// Runs the session; what went wrong, if anything, is written to standard error.
    public func run() async -> Ending {
        transport.start()
        var refusal: (any Error)?
        for await event in transport.events {
            switch event {
            case .started:
                quirks.send("iam:\(name)", on: transport)
                let (transport, quirks) = (transport, quirks)
                Thread {
                    while let line = readLine() { quirks.send(line, on: transport) }
                    transport.stop()
                }.start()
            case .received(let line):
                // Straight to descriptor 1, unbuffered: each line is out as soon as it came.
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            case .framingError(let error):
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                refusal = error
                transport.abort()
            case .peerClosed:
                // The server hung up: the session is over, whatever is left to type.
                transport.stop()
            case .stopped(let error?):
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                return refusal.map(Ending.refusedALine) ?? .failed(error)
            case .stopped(nil):
                return refusal.map(Ending.refusedALine) ?? .closed
            }
        }
        return refusal.map(Ending.refusedALine) ?? .closed
    }
}

