
/// libFuzzer entry: lex, parse, load (with includes served from memory), check variables, and
/// render every diagnostic. Any crash, hang or sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let result = ScenarioLoader.load("fuzz.scn", predefinedVariables: ["host", "port"]) { path in
        if path == "fuzz.scn" { return text }
        if path.hasSuffix("common.scn") { return "var common = \"x\"\ninclude \"fuzz.scn\"\n" }
        throw FuzzError.missing
    }
    let renderer = DiagnosticRenderer(sources: result.sources)
    for diagnostic in result.diagnostics { _ = renderer.render(diagnostic) }
    _ = Grammar.reference
    return 0
}

enum FuzzError: Error { case missing }
