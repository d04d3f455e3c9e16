import FoundationEssentials

/// h2spec's tree as the HTTP/2 suite records it (`lib/sections.tsv`, `lib/cases.tsv`, written
/// by `lib/make-cases` with the scenarios): each section's id and title, in h2spec's order,
/// and each case's id, strictness, description and requirement.
package struct H2SpecCatalog: Sendable {
    package struct Section: Sendable {
        /// `generic`, `http2/6.9.1`.
        package var id: String
        package var title: String

        /// `http2`, or `http2/6.9.1`'s `6.9.1`.
        package var number: String? { id.firstIndex(of: "/").map { String(id[id.index(after: $0)...]) } }
        /// h2spec's indent: 0 for a spec, then one more for each level of the number.
        package var level: Int { number.map { $0.split(separator: ".").count } ?? 0 }
        /// How h2spec heads it: the spec's name, or `6.9.1. The Flow-Control Window`.
        package var heading: String { number.map { "\($0). \(title)" } ?? title }
    }

    package struct Case: Sendable {
        /// `http2/6.9.1/3`.
        package var id: String
        /// Run only with `-S`.
        package var strict: Bool
        package var description: String
        package var requirement: String

        /// `http2/6.9.1`.
        package var section: String { String(id[..<id.lastIndex(of: "/")!]) }
        /// `3`.
        package var number: Int { Int(id[id.index(after: id.lastIndex(of: "/")!)...])! }
        /// The case's scenario in the suite's folder: `http2/6.9.1/3` is `http2-6-9-1-3.scn`.
        package var fileName: String { String(id.map { $0 == "/" || $0 == "." ? "-" : $0 }) + ".scn" }
    }

    package var sections: [Section]
    package var cases: [Case]

    /// Reads the two tables from the suite's `lib/`.
    package static func load(suite: String) throws -> H2SpecCatalog {
        func rows(_ name: String, columns: Int) throws -> [[String]] {
            let path = suite + "/lib/" + name
            guard let data = FileManager.default.contents(atPath: path) else { throw H2SpecError("cannot read \(path)") }
            // Split as bytes: tab and newline are ASCII, and splitting Characters took 0.8 ms.
            return try data.split(separator: UInt8(ascii: "\n")).map { line in
                let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                guard fields.count == columns else {
                    throw H2SpecError("\(path): '\(String(decoding: line, as: UTF8.self))' has \(fields.count) columns, not \(columns)")
                }
                return fields
            }
        }
        return H2SpecCatalog(sections: try rows("sections.tsv", columns: 2).map { Section(id: $0[0], title: $0[1]) },
                             cases: try rows("cases.tsv", columns: 4).map { Case(id: $0[0], strict: $0[1] == "strict", description: $0[2], requirement: $0[3]) })
    }
}
