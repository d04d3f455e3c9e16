@testable import ProbeRunner
import ProbeScript
import Testing

/// How many descriptors a `parallel` block asks for before it starts: one per connection a
/// copy opens, whatever its other steps.
struct ParallelDescriptorsTests {
    static func descriptors(_ body: String) -> Int {
        let parsed = Parser.parse(SourceFile(path: "p.scn", text: body))
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        return ScenarioExecution.descriptors(of: parsed.statements)
    }

    @Test func aSlowlorisCopyHoldsOneConnection() {
        // The repeat holds sends and sleeps only: it adds nothing.
        #expect(Self.descriptors("""
            connect 127.0.0.1:8080
            send "GET / HTTP/1.1\\r\\n"
            repeat 30 { send "X" ; sleep 1s }
            expect nothing for 10ms
            """) == 1)
    }

    @Test func connectionsSubjectsProxiesAndNestedBlocksAdd() {
        #expect(Self.descriptors("sleep 1s") == 0)
        #expect(Self.descriptors("""
            connect 127.0.0.1:8080
            repeat 3 { connect 127.0.0.1:8081 ; close }
            spawn s "true"
            parallel 5 { connect 127.0.0.1:8082 }
            """) == 1 + 1 + 4 + 5)
    }
}
