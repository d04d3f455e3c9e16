/// A `skip` step whose precondition the subject does not meet: the scenario ends there and is
/// reported skipped, with `reason` (and what was not met), neither passed nor failed.
struct ScenarioSkipped: Error {
    let reason: String
}
