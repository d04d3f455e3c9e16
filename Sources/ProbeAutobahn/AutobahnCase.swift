import ProbeResults

/// One case's verdict in Autobahn|Testsuite's terms, as its reports give it: `behavior` is OK,
/// NON-STRICT, INFORMATIONAL, FAILED or UNIMPLEMENTED; `behaviorClose` OK, WRONG CODE (the
/// close was judged apart and noted), FAILED or UNIMPLEMENTED.
struct AutobahnCase: Encodable {
    var id: String
    var agent: String
    var description: String
    var behavior: String
    var behaviorClose: String
    /// Milliseconds.
    var duration: Int
    /// The scenario that ran the case, its notes, and why it failed.
    var scenario: String?
    var notes: [String] = []
    var failure: String?
    /// The section of the agent's HTML report that shows the case's steps.
    var reportSection: String?

    /// The verdict of the scenario that ran case `id`, whose title says what the case does.
    init(id: String, agent: String, result: ScenarioResult, section: String) {
        self.id = id
        self.agent = agent
        description = String(result.title.dropFirst(id.count).drop { $0 == " " })
        duration = Int(result.duration.components.seconds * 1000 + result.duration.components.attoseconds / 1_000_000_000_000_000)
        scenario = result.path
        notes = result.notes.filter { $0.hasPrefix("non-strict: ") }
        reportSection = section
        if let failure = result.failure {
            self.failure = "\(failure.location.fileAndLine): \(failure.step): \(failure.message)"
            (behavior, behaviorClose) = ("FAILED", "FAILED")
        } else if result.title.contains("(Autobahn: INFORMATIONAL)") {
            (behavior, behaviorClose) = ("INFORMATIONAL", "INFORMATIONAL")
        } else {
            behavior = notes.isEmpty ? "OK" : "NON-STRICT"
            behaviorClose = notes.contains { $0.contains(" expect close") } ? "WRONG CODE" : "OK"
        }
    }

    /// A case the suite does not implement (Autobahn's compression cases, 12 and 13).
    init(unimplemented id: String, agent: String, why: String) {
        self.id = id
        self.agent = agent
        description = why
        behavior = "UNIMPLEMENTED"
        behaviorClose = "UNIMPLEMENTED"
        duration = 0
    }

    /// Autobahn's numbering of its compression cases: 12.1.1-12.5.18 and 13.1.1-13.7.18.
    package static let compressionCases = (1...5).flatMap { group in (1...18).map { "12.\(group).\($0)" } }
        + (1...7).flatMap { group in (1...18).map { "13.\(group).\($0)" } }

    /// Case numbers in Autobahn's order: 1.1.2 before 1.1.10, 9.1.1 before 10.1.1.
    static func precedes(_ left: String, _ right: String) -> Bool {
        left.split(separator: ".").map { Int($0) ?? 0 }.lexicographicallyPrecedes(right.split(separator: ".").map { Int($0) ?? 0 })
    }
}
