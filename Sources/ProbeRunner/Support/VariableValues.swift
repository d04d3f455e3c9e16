import ProbeScript

/// The variables a scenario, or a copy of a `parallel` block, has set: each as text, and those
/// whose value is not UTF-8 text (a regex group over binary input) also byte for byte, so
/// `{name}` writes those bytes, never their text. `{copy}` and `{i}` are not kept here, so a
/// `parallel` copy shares its parent's dictionaries until it sets a variable of its own.
struct VariableValues {
    private var text: [String: String]
    /// The values that are not UTF-8 text, by name.
    private(set) var binary: [String: [UInt8]] = [:]
    /// The values given from outside that name variables themselves, while they hold: each is
    /// expanded where it is used (`--var server="./my-server --port {port}"`).
    private(set) var given: [String: Template]
    /// Every value given from outside, which the scenario's defaults do not replace.
    let fromOutside: [String: String]

    /// The values given from outside the scenario (`--var` and the like).
    init(_ text: [String: String]) {
        self.text = text
        self.given = Template.given(text)
        self.fromOutside = text
    }

    /// True when `name` was given from outside (`spawn … unless given NAME`).
    func isGiven(_ name: String) -> Bool { fromOutside[name] != nil }

    /// A variable's text as it is kept (a given template unexpanded); setting it sets a text value.
    subscript(name: String) -> String? {
        get { text[name] }
        set {
            text[name] = newValue
            binary[name] = nil
            given[name] = nil
        }
    }

    /// Sets the variables a regex's named groups took: text as text, other bytes as they are.
    mutating func setCaptures(_ captures: [String: [UInt8]]) {
        for (name, bytes) in captures {
            if let value = String(validating: bytes, as: UTF8.self) {
                self[name] = value
            } else {
                self[name] = String(decoding: bytes, as: UTF8.self)
                binary[name] = bytes
            }
        }
    }
}
