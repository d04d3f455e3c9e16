import ProbeResults
import ProbeScript

/// One self-contained HTML file (no external assets): per scenario its outcome, a ladder
/// diagram with the steps beside it (`HTMLLadder`: probe and peer as two lifelines, with a
/// proxy client, proxy and server as three, each segment an arrow with its time, flags,
/// length, window and payload, drawn from the capture when there was one, else from the step
/// log), and a time–sequence graph for each direction that moved bulk data or met a closing
/// window (`HTMLTimeSequenceGraph`). A small script lights a step's segments on hover and
/// unfolds pure ACKs.
enum HTMLReport {
    static func render(_ run: RunReport) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>tcpprobe report</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}
            h1{font-size:20px} h2{font-size:16px;margin-top:32px}
            .pass{color:#1a7f37} .fail{color:#cf222e} .skip{color:#9a6700}
            pre{background:#f6f8fa;padding:8px;overflow:auto;font-size:12px}
            table.ladder{border-collapse:collapse;font:12px/1.3 ui-monospace,monospace;margin:8px 0}
            table.ladder th{text-align:left;font-weight:normal;color:#555;padding:2px 6px}
            table.ladder td{padding:1px 6px;vertical-align:top}
            table.ladder td.t{color:#555;white-space:nowrap}
            table.ladder td.step{max-width:340px;overflow-wrap:anywhere;cursor:pointer}
            table.ladder td.step pre{margin:2px 0;white-space:pre-wrap}
            table.ladder td:last-child{overflow-wrap:anywhere;max-width:520px}
            table.ladder td.lanes{width:360px;padding:0;background:linear-gradient(#999,#999) no-repeat 20px 0/1px 100%,linear-gradient(#999,#999) no-repeat 340px 0/1px 100%}
            table.ladder.three td.lanes{background:linear-gradient(#999,#999) no-repeat 20px 0/1px 100%,linear-gradient(#999,#999) no-repeat 180px 0/1px 100%,linear-gradient(#999,#999) no-repeat 340px 0/1px 100%}
            table.ladder td.lanes svg{display:block;margin-top:3px}
            table.ladder tr.lit{background:#fff8c5}
            table.ladder tr.named td:last-child,table.ladder tr.failed-step td.step{color:#cf222e}
            table.ladder tr.failure td{color:#cf222e;font-weight:bold;border-top:1px dashed #cf222e}
            table.ladder.hide-acks tr.ack{display:none}
            .record{color:#0969da} .note{color:#555} .hint{color:#888;font-size:12px;margin-left:12px}
            figure.tsg{margin:12px 0} figure.tsg figcaption{font-size:12px;color:#555}
            svg.tsg text{font:11px ui-monospace,monospace} svg.tsg .axis{fill:#555}
                        </style></head><body>
            <h1>tcpprobe: \(run.passed) passed\(run.skippedWireText.map { " (\($0))" } ?? ""), \(run.failed + run.errored) failed\(run.skipped > 0 ? ", \(run.skipped) skipped" : "")\(run.interrupted ? " (interrupted)" : "")</h1>
            <p>Started \(e(run.startedAt)), took \(DurationFormat.seconds(run.duration)) s.</p>

            """
        if !run.notes.isEmpty { html += "<pre>\(e(run.notes.joined(separator: "\n")))</pre>\n" }
        for (index, result) in run.results.enumerated() {
            let (label, css) = status(result)
            html += "<section id=\"s\(index)\"><h2 class=\"\(css)\">\(label) \(e(result.title)) <small>(\(e(result.path)), \(DurationFormat.seconds(result.duration)) s)</small></h2>\n"
            if let text = result.failureText { html += "<pre class=\"fail\">\(e(text))</pre>\n" }
            if let skippedWire = result.skippedWireText, result.outcome.passed { html += "<p class=\"skip\">\(skippedWire): capture was not possible</p>\n" }
            html += HTMLLadder(result: result, id: "ladder\(index)").render()
            html += HTMLTimeSequenceGraph.render(result)
            if !result.notes.isEmpty { html += "<pre>\(e(result.notes.joined(separator: "\n")))</pre>\n" }
            html += "</section>\n"
        }
        return html + "<script>\n" + script + "</script>\n</body></html>\n"
    }

    /// Lights the rows of the step under the pointer (or the one clicked, until clicked again)
    /// and shows or folds pure ACKs.
    static let script = """
        function light(table, step) {
          table.querySelectorAll('tr[data-step]').forEach(function (row) {
            row.classList.toggle('lit', step !== '' && row.dataset.step === step);
          });
        }
        document.querySelectorAll('table.ladder').forEach(function (table) {
          table.dataset.pinned = '';
          table.addEventListener('mouseover', function (event) {
            var row = event.target.closest('tr[data-step]');
            light(table, row ? row.dataset.step : table.dataset.pinned);
          });
          table.addEventListener('mouseleave', function () { light(table, table.dataset.pinned); });
          table.addEventListener('click', function (event) {
            var row = event.target.closest('tr[data-step]');
            if (!row) return;
            table.dataset.pinned = table.dataset.pinned === row.dataset.step ? '' : row.dataset.step;
            light(table, table.dataset.pinned);
          });
        });
        document.querySelectorAll('input.acks').forEach(function (box) {
          box.addEventListener('change', function () {
            document.getElementById(box.dataset.table).classList.toggle('hide-acks', !box.checked);
          });
        });

        """

    private static func status(_ result: ScenarioResult) -> (String, String) {
        switch result.outcome {
        case .passed: return ("✔", "pass")
        case .skipped: return ("–", "skip")
        case .failed: return ("✘", "fail")
        }
    }

    private static func e(_ text: String) -> String { XMLEscaping.escape(text) }
}
