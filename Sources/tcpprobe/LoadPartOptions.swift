import ArgumentParser
import FoundationEssentials
import ProbeRunner

/// `run --part` and `--start-at`: one part of a load split across machines, started by an engine
/// the user already runs (a Kubernetes Indexed Job, a CI matrix); `tcpprobe merge` joins the parts.
struct LoadPartOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        Run the K-th of N parts of one load: of every parallel block, the copies that fall to part K \
        ({copy} keeps its number in the whole load; {part} and {parts} are K and N). Its assert copies \
        and assert latency steps are left for tcpprobe merge, which judges them on the whole load. auto: K is JOB_COMPLETION_INDEX + 1 \
        (a Kubernetes Indexed Job), N is TCPPROBE_PARTS.
        """, valueName: "K/N|auto"))
    var part: String?

    @Option(help: ArgumentHelp("Hold the first step until this moment (RFC 3339, UTC: 2026-12-01T10:00:00Z), so parts on several machines start together.",
                               valueName: "TIME"))
    var startAt: String?

    func validate() throws {
        _ = try loadPart()
        _ = try startTime()
    }

    /// The part `--part` names, or nil without one.
    func loadPart(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> LoadPart? {
        guard let part else { return nil }
        if part == "auto" {
            switch LoadPart.fromEnvironment(environment) {
            case .success(let part): return part
            case .failure(let error): throw ValidationError("\(error)")
            }
        }
        guard let parsed = LoadPart(part) else { throw ValidationError("--part takes K/N with 1 <= K <= N, or auto; got '\(part)'") }
        return parsed
    }

    /// The moment `--start-at` names.
    func startTime() throws -> Date? {
        guard let startAt else { return nil }
        let plain = Date.ISO8601FormatStyle()
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? plain.parse(startAt)) ?? (try? fractional.parse(startAt)) else {
            throw ValidationError("--start-at takes a moment in RFC 3339, such as 2026-12-01T10:00:00Z; got '\(startAt)'")
        }
        return date
    }

    /// Sleeps until `--start-at`; how late the part starts when the moment had passed already.
    func holdUntilStart() async throws -> Duration? {
        guard let start = try startTime() else { return nil }
        let wait = start.timeIntervalSince(Date())
        if wait > 0 {
            try await Task.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up))))
            return nil
        }
        return .milliseconds(Int64((-wait * 1000).rounded()))
    }
}
