/// Renders diagnostics as `file:line:column: error: message`, the source line, and a caret.
package struct DiagnosticRenderer: Sendable {
    package var useColour: Bool
    private let sources: [String: SourceFile]

    package init(sources: [SourceFile], useColour: Bool = false) {
        self.useColour = useColour
        self.sources = Dictionary(sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package func render(_ diagnostic: Diagnostic) -> String {
        let severity = diagnostic.severity.rawValue
        let colouredSeverity = useColour ? "\u{1B}[1;31m\(severity)\u{1B}[0m" : severity
        var text = "\(diagnostic.location): \(colouredSeverity): \(diagnostic.message)"
        if let hint = diagnostic.hint { text += "\n  hint: \(hint)" }
        if let line = sources[diagnostic.location.file]?.line(diagnostic.location.line) {
            let display = line.replacingTabs()
            let padding = String(repeating: " ", count: max(0, diagnostic.location.column - 1))
            let carets = "^" + String(repeating: "~", count: diagnostic.length - 1)
            text += "\n  \(display)\n  \(padding)\(useColour ? "\u{1B}[1;32m\(carets)\u{1B}[0m" : carets)"
        }
        return text
    }

    package func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(render).joined(separator: "\n")
    }
}

private extension String {
    /// Tabs become single spaces so the caret column stays aligned with the scalar column.
    func replacingTabs() -> String {
        String(unicodeScalars.map { $0 == "\t" ? " " : Character($0) })
    }
}
