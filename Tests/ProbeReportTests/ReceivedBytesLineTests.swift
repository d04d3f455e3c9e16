import ProbeReport
import ProbeResults
import ProbeScript
import Testing

/// "nothing was received on that connection" is said only when the failure looked and found
/// nothing: one that did not look (a send, an assert tls) says nothing of what was received.
@Suite struct ReceivedBytesLineTests {
    private func rendered(total: Int?, bytes: [UInt8] = []) -> String {
        var failure = StepFailure(at: SourceLocation(file: "t.scn", line: 3, column: 1), step: "assert tls version = 1.3",
                                  reason: SampleReason(description: "connection #1 does not speak TLS"), connection: "connection #1")
        failure.recentBytes = bytes
        failure.totalReceived = total
        let result = ScenarioResult(path: "t.scn", title: "t", outcome: .failed(failure), duration: .zero, log: [], notes: [])
        return ConsoleReporter(useColour: false).render(result)
    }

    @Test func nothingReceivedOnlyWhenNothingWas() {
        #expect(!rendered(total: nil).contains("received"))
        #expect(rendered(total: 0).contains("nothing was received on that connection"))
        let some = rendered(total: 6, bytes: Array("pong\r\n".utf8))
        #expect(some.contains("last 6 bytes received (6 in all): \"pong\\r\\n\"") && !some.contains("nothing was received"), "\(some)")
    }
}
