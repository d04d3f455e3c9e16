/// `spawn NAME "command" [ready on ADDR[, ADDR…] | ready when stdout|stderr /re/ [within D]] [with stdin] [cwd "DIR"] [env K=V ...]
/// [in NETWORK] [unless given VAR]`.
package struct SpawnStep: Sendable, Hashable {
    package enum Readiness: Sendable, Hashable {
        /// Ready once every address listens (a broker with a TCP and a WebSocket port).
        case listening([Argument<Address>])
        case output(stream: OutputStream, RegexLiteral)
    }

    package enum OutputStream: String, Sendable, Hashable { case stdout, stderr }

    package var name: Name
    package var command: Template
    package var readiness: Readiness?
    /// How long to wait for readiness; the step timeout when not given.
    package var readinessWithin: Argument<Duration>?
    /// `with stdin`: its standard input is a pipe that `input NAME ...` writes; else /dev/null.
    package var withStdin: Bool
    package var environment: [(key: String, value: Template)]
    /// `cwd "DIR"`: where it runs, from the folder of the file the step is in; that folder when nil.
    package var workingDirectory: Template?
    /// `in NETWORK`: it runs in that network's namespace; on the probe's host when nil.
    package var network: Name?
    /// `unless given VAR`: not started when VAR was given from outside the scenario (`--var`),
    /// as a suite's default subject is not when the user points it at their own.
    package var unlessGiven: Name?

    package init(name: Name, command: Template, readiness: Readiness?, readinessWithin: Argument<Duration>? = nil,
                withStdin: Bool = false, workingDirectory: Template? = nil, network: Name? = nil, unlessGiven: Name? = nil,
                environment: [(key: String, value: Template)]) {
        self.name = name
        self.command = command
        self.readiness = readiness
        self.readinessWithin = readinessWithin
        self.withStdin = withStdin
        self.workingDirectory = workingDirectory
        self.network = network
        self.unlessGiven = unlessGiven
        self.environment = environment
    }

    package static func == (lhs: SpawnStep, rhs: SpawnStep) -> Bool {
        lhs.name == rhs.name && lhs.command == rhs.command && lhs.readiness == rhs.readiness
            && lhs.readinessWithin == rhs.readinessWithin && lhs.withStdin == rhs.withStdin && lhs.workingDirectory == rhs.workingDirectory
            && lhs.network == rhs.network && lhs.unlessGiven == rhs.unlessGiven
            && lhs.environment.map(\.key) == rhs.environment.map(\.key)
            && lhs.environment.map(\.value) == rhs.environment.map(\.value)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(command)
    }
}

/// `expect exit NAME [code N] [within D]`.
package struct ExitExpectation: Sendable, Hashable {
    package var name: Name
    package var code: Argument<Int>?
    package var within: Argument<Duration>?

    package init(name: Name, code: Argument<Int>?, within: Argument<Duration>?) {
        self.name = name
        self.code = code
        self.within = within
    }
}
