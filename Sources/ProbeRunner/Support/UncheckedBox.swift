/// Hands a non-Sendable value to exactly one task.
/// Sendable: its value is handed to exactly one task, which alone touches it afterwards.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
