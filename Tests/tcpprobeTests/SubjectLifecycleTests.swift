import Foundation
import TestSupport
import Testing

/// Spawned subjects never outlive tcpprobe: not on a crash at start, not on Ctrl-C.
@Suite struct SubjectLifecycleTests {
    private func scenario(_ text: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-life-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent("s.scn"))
        return directory
    }

    /// Processes whose command line contains `marker`.
    private func processes(containing marker: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let command = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return command.contains(marker) ? "\(pid): \(command)" : nil
        }
    }

    @Test func aSubjectCrashingAtStartExitsThree() async throws {
        let directory = try scenario("var port = free-port\nspawn s \"sh -c 'exit 7'\" ready on 127.0.0.1:{port}\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await ProbeProcess.run(["run", "s.scn"], in: directory)
        #expect(output.status == 3)
        #expect(output.stdout.contains("ended (exit code 7) before it listened"))
        #expect(output.stdout.contains("0 passed, 1 failed (1 an environment error, not a verdict)"), "\(output.stdout)")
    }

    /// A daemon's setsid fork escapes `kill` on the subject's group. Found by the token in its
    /// environment, it is stopped with its scenario's subjects; one that cleared its
    /// environment became tcpprobe's child (its reaper) and is stopped when the run ends. A
    /// background job of a subject that exited is stopped with the subject's group.
    @Test func noProcessASubjectLeftBehindOutlivesTheRun() async throws {
        let marker = "33.3\(Int.random(in: 100...999))"
        func daemon(_ become: String) -> String {
            #"python3 -c 'import os,sys,time; os.fork() and os._exit(0); os.setsid(); print(\"forked\", flush=True); \#(become)'"#
        }
        let directory = try scenario("""
            spawn d "\(daemon("time.sleep(\(marker))"))" ready when stdout /forked/
            spawn e "\(daemon("os.execve(\\\"/bin/sleep\\\", [\\\"sleep\\\", \\\"\(marker)\\\"], dict())"))" ready when stdout /forked/
            spawn g "sh -c 'sleep \(marker) & echo started'" ready when stdout /started/
            expect exit g code 0
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await ProbeProcess.run(["run", "-v", "--report", "json=r.json", "s.scn"], in: directory)
        #expect(output.status == 0, "\(output.stdout)")
        #expect(processes(containing: marker).isEmpty, "left behind: \(processes(containing: marker))")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any]
        #expect((report?["notes"] as? [String])?.first?.contains("(sleep \(marker))") == true, "\(report?["notes"] ?? "no notes")")
        #expect(output.stdout.contains("subject 'd' left pid "), "\(output.stdout)")
        #expect(output.stdout.contains("running outside its process group (in the background); tcpprobe stopped it"), "\(output.stdout)")
        #expect(output.stderr.contains("stopped 1 process that subjects left running in the background"), "\(output.stderr)")
        #expect(output.stderr.contains("(sleep \(marker))"), "\(output.stderr)")
        #expect(output.stdout.contains("subject 'g' had exited but left processes running in its process group"), "\(output.stdout)")
    }

    /// A daemon that cleared its environment carries no token, but it listens on the port its
    /// subject was to be ready on: it is stopped with its scenario, so the next scenario of the
    /// run finds that port closed.
    @Test func aDaemonOnItsSubjectsPortIsStoppedWithItsScenario() async throws {
        let marker = "44.4\(Int.random(in: 100...999))"
        let port = try LoopbackSocket.closedPort()
        let directory = try scenario("spawn d \"python3 daemon.py {port} \(marker)\" ready on 127.0.0.1:{port}\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("""
            import os, sys
            if os.fork(): os._exit(0)
            os.setsid()
            serve = "import socket,sys,time; s=socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen(); time.sleep(float(sys.argv[2]))"
            os.execve(sys.executable, [sys.executable, "-c", serve, sys.argv[1], sys.argv[2]], {})
            """.utf8).write(to: directory.appendingPathComponent("daemon.py"))
        try Data("title \"port closed\"\nconnect 127.0.0.1:{port} expect refused\n".utf8).write(to: directory.appendingPathComponent("next.scn"))
        let output = try await ProbeProcess.run(["run", "--jobs", "1", "--var", "port=\(port)", "s.scn", "next.scn"], in: directory)
        #expect(output.stdout.contains("put itself in the background"), "\(output.stdout)")
        #expect(output.stdout.contains("subject 'd' left pid "), "\(output.stdout)")
        #expect(output.stdout.contains(" on port \(port) running outside its process group"), "\(output.stdout)")
        #expect(output.stdout.contains("✔ port closed"), "\(output.stdout)")
        #expect(!output.stderr.contains("stopped 1 process"), "\(output.stderr)")
        #expect(processes(containing: marker).isEmpty, "left behind: \(processes(containing: marker))")
    }

    /// `kill -9` of tcpprobe (what a CI runner's timeout does): its subjects die with it, by
    /// the kernel's parent-death signal; what one left running in the background survives it,
    /// and the next run stops that, saying what and whose it was.
    @Test func subjectsDieWithAKilledRunAndTheNextRunClearsTheRest() async throws {
        let marker = "27.1\(Int.random(in: 100...999))"
        let directory = try scenario("""
            spawn a "sleep \(marker)1"
            spawn b "sh -c 'sleep \(marker)2 & exec sleep \(marker)3'"
            sleep 30s
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try ProbeProcess.start(["run", "s.scn"], in: directory)
        await Eventually.holds(within: .seconds(5), every: .milliseconds(50)) { processes(containing: "sleep \(marker)").count >= 3 }
        #expect(processes(containing: "sleep \(marker)").count == 3, "the subjects never started")
        kill(process.processIdentifier, SIGKILL)
        await ProbeProcess.waitUntilExit(process)
        await Eventually.holds(within: .seconds(2), every: .milliseconds(20)) { processes(containing: "sleep \(marker)").count <= 1 }
        #expect(processes(containing: "sleep \(marker)1").isEmpty && processes(containing: "sleep \(marker)3").isEmpty,
                "the subjects outlived the run: \(processes(containing: "sleep \(marker)"))")
        #expect(processes(containing: "sleep \(marker)2").count == 1, "the background job is the next run's to stop")
        try Data("sleep 1ms\n".utf8).write(to: directory.appendingPathComponent("next.scn"))
        let next = try await ProbeProcess.run(["run", "next.scn"], in: directory)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(processes(containing: "sleep \(marker)").isEmpty, "left behind: \(processes(containing: "sleep \(marker)"))")
        #expect(next.stderr.contains("left running by a tcpprobe run that was killed"), "\(next.stderr)")
        #expect(next.stderr.contains("(sleep \(marker)2), left by the run of pid \(process.processIdentifier)"), "\(next.stderr)")
    }

    @Test(.timed) func ctrlCLeavesNoChildProcess() async throws {
        let marker = "31.4159\(Int.random(in: 100...999))"
        let directory = try scenario("""
            spawn a "sleep \(marker)"
            spawn b "sh -c 'trap \\"\\" TERM; sleep \(marker)'"
            sleep 20s
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try ProbeProcess.start(["run", "s.scn"], in: directory)
        await Eventually.holds(within: .seconds(5), every: .milliseconds(50)) { processes(containing: "sleep \(marker)").count >= 2 }
        #expect(processes(containing: "sleep \(marker)").count >= 2, "the subjects never started")
        process.interrupt()
        await ProbeProcess.waitUntilExit(process)
        #expect(process.terminationStatus == 130)
        #expect(processes(containing: "sleep \(marker)").isEmpty, "left behind: \(processes(containing: "sleep \(marker)"))")
    }

    @Test(.timed) func anInterruptedRunFlushesItsReportsAndCaptureWithinASecond() async throws {
        let marker = "27.1828\(Int.random(in: 100...999))"
        let directory = try scenario("""
            set capture on
            var port = free-port
            listen l 127.0.0.1:{port}
            connect a 127.0.0.1:{port}
            spawn a "sleep \(marker)"
            sleep 20s
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try ProbeProcess.start(["run", "--report", "json=r.json", "--pcap-dir", "pcaps", "s.scn"], in: directory)
        await Eventually.holds(within: .seconds(5), every: .milliseconds(50)) { !processes(containing: "sleep \(marker)").isEmpty }
        let clock = ContinuousClock()
        let signalled = clock.now
        process.terminate() // SIGTERM
        await ProbeProcess.waitUntilExit(process)
        #expect(clock.now - signalled < .milliseconds(1500), "took \(clock.now - signalled) to stop")
        #expect(process.terminationStatus == 143)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any]
        #expect(report?["interrupted"] as? Bool == true)
        if geteuid() == 0 {
            let kept = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("pcaps").path)
            #expect(kept.count == 1 && kept[0].hasSuffix(".interrupted.pcap"), "\(kept)")
        }
        #expect(processes(containing: "sleep \(marker)").isEmpty)
    }
}
