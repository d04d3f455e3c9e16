/// libFuzzer entry for `tcpprobe fmt`: whatever parses without errors formats without
/// changing its meaning (the formatter's own check, which throws `meaningChanged`), and
/// formatting the result changes nothing (fmt∘fmt = fmt). Either failure traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let once: String
    do {
        once = try ScenarioFormatter.format(SourceFile(path: "fuzz.scn", text: text))
    } catch {
        switch error {
        case .invalid: return 0
        case .meaningChanged(let formatted): fatalError("fmt changed the meaning of:\n\(text)\n--- into:\n\(formatted)")
        }
    }
    let twice = try? ScenarioFormatter.format(SourceFile(path: "fuzz.scn", text: once))
    precondition(twice == once, "fmt is not idempotent on:\n\(text)\n--- once:\n\(once)\n--- twice:\n\(twice ?? "(an error)")")
    return 0
}
