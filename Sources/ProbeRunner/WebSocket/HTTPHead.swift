/// The start line and headers of an HTTP/1.1 request or response head, as the WebSocket
/// upgrade reads them (RFC 6455 §4): names compared without case.
struct HTTPHead {
    let startLine: String
    private let fields: [(name: String, value: String)]

    init(_ text: String) {
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        startLine = lines.first ?? ""
        fields = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), Self.trimmed(line[line.index(after: colon)...]))
        }
    }

    /// The value of the field `name`; several are joined with ", ".
    subscript(_ name: String) -> String? {
        let values = fields.filter { $0.name == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// True when the field `name` lists `token` (`Connection: keep-alive, Upgrade`).
    func lists(_ name: String, _ token: String) -> Bool {
        self[name]?.split(separator: ",").contains { Self.trimmed($0).lowercased() == token.lowercased() } ?? false
    }

    /// `text` without the spaces and tabs around it.
    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
