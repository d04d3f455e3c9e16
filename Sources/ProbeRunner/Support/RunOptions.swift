import ProbeScript

/// Settings of a run that come from the command line, not from the scenario.
package struct RunOptions: Sendable {
    /// `--var NAME=VALUE`: defines a variable, or overrides a `var` default.
    package var variables: [String: String]
    /// The seed of `send random`; a fresh one per scenario when nil (the report gives it).
    package var seed: UInt64?
    /// `--sweep-limit`: at most this many runs for one `split sweep`.
    package var sweepLimit: Int
    package var capture: CaptureSettings
    /// Keep each captured segment in the result (for the HTML ladder report).
    package var recordWire = false
    /// `--tls`: the TLS every `connect` (`client`) and `listen` (`server`) without its own `tls`
    /// speaks, to run a plaintext suite over TLS.
    package var defaultTLS: (client: TLSOptions, server: TLSOptions)?
    /// `--part K/N`: the share of every `parallel` block's copies this process runs; its
    /// `assert copies`/`assert latency` steps are left for `tcpprobe merge`.
    package var part: LoadPart?
    /// Whether scenarios that test one server given to the run (`spawn … unless given url`) run
    /// one at a time (`SharedSubjects`), the default; `tcpprobe h2spec` runs its cases, a few
    /// frames each, `--jobs` at once.
    package var givenServerOneScenarioAtATime = true
    /// Whether each scenario keeps its step log for the reports; `tcpprobe h2spec`, which
    /// prints the logs only with `-v`, does not build them otherwise.
    package var keepsLogs = true
    /// Told the scenario path and the step as each top-level step starts (for a progress line).
    package var onStep: (@Sendable (_ path: String, _ step: String) -> Void)?

    package init(variables: [String: String] = [:], seed: UInt64? = nil, sweepLimit: Int = 256, capture: CaptureSettings = CaptureSettings()) {
        self.variables = variables
        self.seed = seed
        self.sweepLimit = sweepLimit
        self.capture = capture
    }
}
