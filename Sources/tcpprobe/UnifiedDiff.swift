/// Two versions of a text as a unified diff (`diff -u`'s format: `---`/`+++` labels, `@@`
/// hunks with three lines of context), for `tcpprobe fmt --check`.
struct UnifiedDiff {
    /// One line of the edit: kept, removed or added, with where it stands in each version.
    struct Edit {
        var mark: Character
        var text: String
        var oldIndex: Int
        var newIndex: Int
    }

    let edits: [Edit]

    init(old: [String], new: [String]) {
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in new.difference(from: old) {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, removed.contains(i) {
                edits.append(Edit(mark: "-", text: old[i], oldIndex: i, newIndex: j)); i += 1
            } else if j < new.count, inserted.contains(j) {
                edits.append(Edit(mark: "+", text: new[j], oldIndex: i, newIndex: j)); j += 1
            } else {
                edits.append(Edit(mark: " ", text: old[i], oldIndex: i, newIndex: j)); i += 1; j += 1
            }
        }
        self.edits = edits
    }

    /// The diff as text; empty when the versions are equal.
    func render(oldLabel: String, newLabel: String, context: Int = 3) -> String {
        let changed = edits.indices.filter { edits[$0].mark != " " }
        guard !changed.isEmpty else { return "" }
        var hunks: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(edits.count - 1, index + context)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...range.upperBound
            } else {
                hunks.append(range)
            }
        }
        var out = "--- \(oldLabel)\n+++ \(newLabel)\n"
        for hunk in hunks {
            let lines = edits[hunk]
            let oldCount = lines.filter { $0.mark != "+" }.count, newCount = lines.filter { $0.mark != "-" }.count
            let first = lines.first!
            out += "@@ -\(first.oldIndex + (oldCount > 0 ? 1 : 0)),\(oldCount) +\(first.newIndex + (newCount > 0 ? 1 : 0)),\(newCount) @@\n"
            for line in lines { out += "\(line.mark)\(line.text)\n" }
        }
        return out
    }
}
