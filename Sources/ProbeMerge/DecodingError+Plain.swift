import FoundationEssentials

extension DecodingError {
    /// What is wrong with the document, in a sentence that names the field by its path:
    /// `no "tool" field`, `"scenarios" is not an array`, `not valid JSON`.
    var plainDescription: String {
        switch self {
        case .keyNotFound(let key, let context): "no \"\(Self.path(context.codingPath + [key]))\" field"
        case .valueNotFound(let type, let context), .typeMismatch(let type, let context):
            "\"\(Self.path(context.codingPath))\" is not \(Self.kind(type))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty: "not valid JSON"
        case .dataCorrupted(let context): "\"\(Self.path(context.codingPath))\": \(context.debugDescription)"
        @unknown default: "\(self)"
        }
    }

    /// `scenarios[0].parallel`: keys joined by dots, array positions in brackets.
    private static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce("") { path, key in
            key.intValue.map { "\(path)[\($0)]" } ?? (path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)")
        }
    }

    /// The JSON kind a Swift type is decoded from: "an array", "a string", "a number".
    private static func kind(_ type: Any.Type) -> String {
        let name = "\(type)"
        if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
        if name.hasPrefix("Dictionary") { return "an object" }
        if name == "String" { return "a string" }
        if name == "Bool" { return "true or false" }
        if ["Int", "Double", "UInt64", "Int64", "UInt32", "Int32", "Float"].contains(name) { return "a number" }
        return "what a report has there (\(name))"
    }
}
