import Foundation
import ProbeRunner
import ProbeScript

/// The run as JSON, following docs/report-schema.json.
enum JSONReport {
    static func render(_ run: RunReport) -> String {
        let document: [String: Any] = [
            "tool": "tcpprobe",
            "schema": 1,
            "startedAt": run.startedAt,
            "durationSeconds": Double(DurationFormat.seconds(run.duration)) ?? 0,
            "interrupted": run.interrupted,
            "summary": ["total": run.results.count, "passed": run.passed, "failed": run.failed, "errors": run.errored, "skipped": run.skipped],
            "scenarios": run.results.map(scenario),
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func scenario(_ result: ScenarioResult) -> [String: Any] {
        var object: [String: Any] = [
            "path": result.path,
            "title": result.title,
            "durationSeconds": Double(DurationFormat.seconds(result.duration)) ?? 0,
            "notes": result.notes,
            "log": result.log.map { entry -> [String: Any] in
                var item: [String: Any] = ["offsetSeconds": Double(DurationFormat.seconds(entry.offset)) ?? 0, "message": entry.message]
                if let location = entry.location { item["location"] = location.fileAndLine }
                return item
            },
        ]
        switch result.outcome {
        case .passed: object["outcome"] = "passed"
        case .skipped(let reason):
            object["outcome"] = "skipped"
            object["skipReason"] = reason
        case .failed(let failure):
            object["outcome"] = failure.kind == .environment ? "error" : "failed"
            var details: [String: Any] = ["location": failure.location.fileAndLine, "step": failure.step, "message": failure.message]
            if let connection = failure.connection { details["connection"] = connection }
            if let waited = failure.waited { details["waitedSeconds"] = Double(DurationFormat.seconds(waited)) ?? 0 }
            if failure.totalReceived > 0 {
                details["lastBytesReceived"] = String(decoding: failure.recentBytes, as: UTF8.self)
                details["totalBytesReceived"] = failure.totalReceived
            }
            object["failure"] = details
        }
        if let sweep = result.sweep {
            object["splitSweep"] = [
                "messageLength": sweep.plan.messageLength,
                "sampled": sweep.plan.sampled,
                "offsets": sweep.outcomes.map { ["offset": $0.offset, "passed": $0.passed] },
            ] as [String: Any]
        }
        if !result.parallel.isEmpty {
            object["parallel"] = result.parallel.map { summary -> [String: Any] in
                var item: [String: Any] = ["line": summary.location.line, "copies": summary.copies, "passed": summary.passed,
                                           "failed": summary.failed, "expects": summary.expects]
                for (key, value) in [("p50", summary.p50), ("p90", summary.p90), ("p99", summary.p99), ("max", summary.max)] {
                    if let value { item[key + "Seconds"] = Double(value / .microseconds(1)) / 1e6 }
                }
                return item
            }
        }
        return object
    }
}
