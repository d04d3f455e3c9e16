import ProbeResults
import Testing

/// `non-strict { … }`: a step not met ends the block with a note and the scenario goes on with
/// what that step left; outside the block, and for an environment error inside it, a failure
/// stays a failure.
@Suite struct NonStrictBlockTests {
    @Test func aStepNotMetEndsTheBlockWithANoteAndTheScenarioGoesOn() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 300ms
            connect 127.0.0.1:{port}
            repeat 2 {
              non-strict {
                expect line "y{i}" within 50ms
                send line "never sent"
              }
              send line "x{i}"
              expect line "x{i}"
            }
            send line "after"
            expect line "after"
            """, against: peer)
        result.expectPassed()
        #expect(result.notes.filter { $0.hasPrefix("non-strict: line 5 expect line \"y{i}\" within 50ms: timed out after 50ms") }.count == 2,
                "\(result.notes)")
        #expect(!String(decoding: peer.log.received, as: UTF8.self).contains("never sent"))
    }

    @Test func aBlockWhoseStepsAreMetLeavesNoNote() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            non-strict {
              send line "a"
              expect line "a"
            }
            """, against: peer)
        result.expectPassed()
        #expect(result.notes.allSatisfy { !$0.contains("non-strict") }, "\(result.notes)")
    }

    @Test func theInnermostBlockEndsAndAFailureOutsideStillFails() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 200ms
            connect 127.0.0.1:{port}
            non-strict {
              non-strict {
                expect line "inner"
              }
              send line "outer goes on"
              expect line "outer goes on"
            }
            expect line "fails"
            """, against: peer)
        result.expectFailure(line: 10, containing: "fails")
        #expect(result.notes.count(where: { $0.hasPrefix("non-strict: line 5 ") }) == 1, "\(result.notes)")
        #expect(String(decoding: peer.log.received, as: UTF8.self).contains("outer goes on"), "the outer block went on")
    }

    @Test func anEnvironmentErrorInsideStillStopsTheRun() async throws {
        let result = try await ScenarioHarness.run("""
            non-strict {
              spawn nothing "/nonexistent/program"
            }
            """)
        #expect(result.failure?.kind == .environment, "\(String(describing: result.failure))")
    }
}
