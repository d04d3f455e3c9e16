import FoundationEssentials
import ProbeResults
import ProbeScript

/// The run as JSON, following docs/report-schema.json. The nested types are that schema;
/// absent optionals leave their keys out. `merge` reads parts' reports back through them.
package enum JSONReport {
    static func render(_ run: RunReport) -> String {
        let document = Document(
            startedAt: run.startedAt, durationSeconds: seconds(run.duration), interrupted: run.interrupted,
            notes: run.notes.isEmpty ? nil : run.notes, part: run.part,
            summary: Summary(total: run.results.count, passed: run.passed, failed: run.failed, errors: run.errored, skipped: run.skipped,
                             skippedWireChecks: run.skippedWireChecks == 0 ? nil : run.skippedWireChecks),
            scenarios: run.results.map(Scenario.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func seconds(_ duration: Duration) -> Double { Double(DurationFormat.seconds(duration)) ?? 0 }

    package struct Document: Codable {
        var tool = "tcpprobe"
        var schema = 1
        package var startedAt: String
        package var durationSeconds: Double
        var interrupted: Bool
        package var notes: [String]?
        package var part: String?
        var summary: Summary
        package var scenarios: [Scenario]
    }

    struct Summary: Codable {
        var total, passed, failed, errors, skipped: Int
        var skippedWireChecks: Int?
    }

    package struct Scenario: Codable {
        package var path, title: String
        package var durationSeconds: Double
        package var notes: [String]
        var log: [LogItem]
        package var outcome: String
        var skipReason: String?
        package var failure: Failure?
        var splitSweep: SplitSweepItem?
        package var parallel: [ParallelItem]?
        var skippedWireChecks: Int?
        package var digest: String?
        package var unjudged: [UnjudgedItem]?

        init(_ result: ScenarioResult) {
            path = result.path
            title = result.title
            durationSeconds = JSONReport.seconds(result.duration)
            notes = result.notes
            log = result.log.map { LogItem(offsetSeconds: JSONReport.seconds($0.offset), message: $0.message, location: $0.location?.fileAndLine) }
            switch result.outcome {
            case .passed:
                outcome = "passed"
            case .skipped(let reason):
                outcome = "skipped"
                skipReason = reason
            case .failed(let details):
                outcome = details.kind == .environment ? "error" : "failed"
                failure = Failure(details)
            }
            if let sweep = result.sweep {
                splitSweep = SplitSweepItem(messageLength: sweep.plan.messageLength, sampled: sweep.plan.sampled,
                                            offsets: sweep.outcomes.map { SplitSweepItem.Offset(offset: $0.offset, passed: $0.passed) })
            }
            if !result.parallel.isEmpty { parallel = result.parallel.map(ParallelItem.init) }
            if result.skippedWireChecks > 0 { skippedWireChecks = result.skippedWireChecks }
            digest = result.digest
            if !result.unjudged.isEmpty {
                unjudged = result.unjudged.map { UnjudgedItem(line: $0.location.line, step: $0.step, blockLine: $0.block.line) }
            }
        }
    }

    /// An `assert copies`/`assert latency` a part left for `merge`.
    package struct UnjudgedItem: Codable {
        package var line: Int
        package var step: String
        package var blockLine: Int
    }

    struct LogItem: Codable {
        var offsetSeconds: Double
        var message: String
        var location: String?
    }

    package struct Failure: Codable {
        package var location, step, message: String
        var connection: String?
        var waitedSeconds: Double?
        var lastBytesReceived: String?
        var totalBytesReceived: Int?

        init(_ failure: StepFailure) {
            location = failure.location.fileAndLine
            step = failure.step
            message = failure.message
            connection = failure.connection
            waitedSeconds = failure.waited.map(JSONReport.seconds)
            if let total = failure.totalReceived, total > 0 {
                lastBytesReceived = String(decoding: failure.recentBytes, as: UTF8.self)
                totalBytesReceived = total
            }
        }
    }

    struct SplitSweepItem: Codable {
        struct Offset: Codable {
            var offset: Int
            var passed: Bool
        }

        var messageLength: Int
        var sampled: Bool
        var offsets: [Offset]
    }

    package struct ParallelItem: Codable {
        package var line, copies, passed, failed, expects: Int
        var p50Seconds, p90Seconds, p99Seconds, p999Seconds, maxSeconds: Double?
        /// Under `run --part`: the part, its first copy and the whole block's, and the
        /// latencies in HdrHistogram's compressed encoding with their exact maximum.
        package var part: String?
        package var firstCopy, wholeBlock: Int?
        package var latencyHistogram: String?
        package var maxMicroseconds: UInt64?

        init(_ summary: ParallelSummary) {
            line = summary.location.line
            copies = summary.copies
            passed = summary.passed
            failed = summary.failed
            expects = summary.expects
            func seconds(_ value: Duration?) -> Double? { value.map { Double($0 / .microseconds(1)) / 1e6 } }
            p50Seconds = seconds(summary.p50)
            p90Seconds = seconds(summary.p90)
            p99Seconds = seconds(summary.p99)
            p999Seconds = seconds(summary.p999)
            maxSeconds = seconds(summary.max)
            if let share = summary.share {
                part = share.part
                firstCopy = share.firstCopy
                wholeBlock = share.wholeBlock
                latencyHistogram = HdrHistogramEncoding.encode(summary.latencies)
                maxMicroseconds = summary.expects > 0 ? summary.latencies.maxRecorded : nil
            }
        }
    }
}
