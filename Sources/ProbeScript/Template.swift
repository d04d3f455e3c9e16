/// Text with `{name}` interpolations, rendered to bytes once the variables are known.
package struct Template: Sendable, Hashable {
    package enum Part: Sendable, Hashable {
        case bytes([UInt8])
        /// `"…" * N`: a literal run and how many times it repeats, kept this short until the
        /// template is rendered (a suite of 16 MiB messages loads without holding them).
        case repeated([UInt8], times: Int)
        /// `"…" * {NAME}`: a literal run repeated as many times as the variable says when the
        /// template is rendered (none when its value is not a whole number; 16 MiB at most).
        /// `* {NAME + N}` adds N to the count.
        case repeatedByVariable([UInt8], times: String, plus: Int = 0, SourceLocation)
        /// `{NAME}`, or `{NAME + N}` and `{NAME - N}`: the variable's value with N added.
        case variable(String, plus: Int = 0, SourceLocation)
        /// `??` in hex: any one byte, where bytes are expected (the parser refuses it elsewhere).
        case anyByte(SourceLocation)
    }

    package let parts: [Part]
    /// Whether a part takes a variable's value or any byte: worked out once, for a `send` or
    /// an `expect` renders its template every round trip.
    private let interpolates: Bool
    /// The bytes its literal parts make, the room a rendering reserves before its values'.
    private let literalSize: Int

    package init(parts: [Part]) {
        // Merge neighbouring byte runs so a literal template is a single part.
        var merged: [Part] = []
        var interpolates = false, literalSize = 0
        for part in parts {
            switch part {
            case .bytes(let bytes): literalSize += bytes.count
            case .repeated(let bytes, let times): literalSize += bytes.count * times
            case .variable, .repeatedByVariable, .anyByte: interpolates = true
            }
            if case .bytes(let next) = part, case .bytes(let previous)? = merged.last {
                merged[merged.count - 1] = .bytes(previous + next)
            } else {
                merged.append(part)
            }
        }
        self.parts = merged
        self.interpolates = interpolates
        self.literalSize = literalSize
    }

    package init(literal bytes: [UInt8]) { self.init(parts: [.bytes(bytes)]) }

    package init(literal text: String) { self.init(literal: Array(text.utf8)) }

    /// The bytes when the template has no interpolation (a repetition written out).
    package var literalBytes: [UInt8]? {
        if parts.isEmpty { return [] }
        if parts.count == 1, case .bytes(let bytes) = parts[0] { return bytes }
        guard !interpolates else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(literalSize)
        for part in parts {
            switch part {
            case .bytes(let bytes): out += bytes
            case .repeated(let bytes, let times): Self.append(bytes, times: times, to: &out)
            case .variable, .repeatedByVariable, .anyByte: return nil
            }
        }
        return out
    }

    /// How many bytes the template makes when it has no interpolation, without making them.
    package var literalCount: Int? {
        interpolates ? nil : literalSize
    }

    /// The variables the template refers to, with where each is used.
    package var variables: [(name: String, location: SourceLocation)] {
        parts.compactMap { part in
            switch part {
            case .variable(let name, _, let location), .repeatedByVariable(_, let name, _, let location): return (name, location)
            default: return nil
            }
        }
    }

    /// Where the template has `??`, any one byte.
    package var anyBytes: [SourceLocation] {
        parts.compactMap { part in
            if case .anyByte(let location) = part { return location }
            return nil
        }
    }

    /// Renders the template; `lookup` gives a variable's value (nil renders as empty text).
    /// A literal template returns its own bytes.
    package func render(_ lookup: (String) -> String?) -> [UInt8] {
        render(lookup, bytes: [:])
    }

    /// Renders the template, taking a variable's value from `bytes` when it is there (a value
    /// that is not text, such as a regex group over binary input), else from `lookup`: either
    /// way the value's bytes are written as they are. A `??` renders as a zero byte: only an
    /// expect holds one, and it renders a `pattern`.
    package func render(_ lookup: (String) -> String?, bytes values: [String: [UInt8]]) -> [UInt8] {
        if let literalBytes { return literalBytes }
        var anyByteAt: Set<Int>?
        return rendering(lookup, values, anyByteAt: &anyByteAt)
    }

    /// The bytes an expect compares with: rendered as `render` does, each `??` taking any byte.
    package func pattern(_ lookup: (String) -> String?, bytes values: [String: [UInt8]]) -> BytePattern {
        if let literalBytes { return BytePattern(literalBytes) }
        var anyByteAt: Set<Int>? = []
        let bytes = rendering(lookup, values, anyByteAt: &anyByteAt)
        return BytePattern(bytes, anyByteAt: anyByteAt ?? [])
    }

    /// One array, with room for a short variable's value and a line terminator (a `send`
    /// renders one every round trip); the offsets of `??` go to `anyByteAt` when it is kept.
    private func rendering(_ lookup: (String) -> String?, _ values: [String: [UInt8]], anyByteAt: inout Set<Int>?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(literalSize + Self.roomForValues)
        for index in parts.indices {
            switch parts[index] {
            case .bytes(let bytes): out += bytes
            case .repeated(let bytes, let times): Self.append(bytes, times: times, to: &out)
            case .repeatedByVariable(let bytes, let name, let plus, _):
                Self.append(bytes, times: Self.times(Self.value(lookup(name), plus: plus), of: bytes), to: &out)
            case .variable(let name, 0, _):
                if !values.isEmpty, let value = values[name] { out += value } else { Self.append(lookup(name) ?? "", to: &out) }
            case .variable(let name, let plus, _):
                out.append(contentsOf: Self.value(values[name].map { String(decoding: $0, as: UTF8.self) } ?? lookup(name), plus: plus).utf8)
            case .anyByte:
                anyByteAt?.insert(out.count)
                out.append(0)
            }
        }
        return out
    }

    /// Appends `text`'s UTF-8 bytes: from its contiguous storage when it has it (a short value,
    /// such as `{i}`'s, always does), else byte by byte.
    static func append(_ text: String, to out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: text.utf8)
        }
    }

    /// Appends `times` copies of `bytes` by doubling what is written, a few large copies
    /// rather than millions of small ones (16 MiB of "*" is 24 copies).
    static func append(_ bytes: [UInt8], times: Int, to out: inout [UInt8]) {
        guard times > 0, !bytes.isEmpty else { return }
        let start = out.count, total = bytes.count * times
        out += bytes
        while out.count - start < total {
            let written = out.count - start
            out.append(contentsOf: out[start..<(start + min(written, total - written))])
        }
    }

    /// `{NAME + N}`'s text: the value with `plus` added when it is a whole number, else the
    /// value and the sum as written (`abc + 1`), which a number's parse then refuses, shown.
    package static func value(_ value: String?, plus: Int) -> String {
        guard plus != 0 else { return value ?? "" }
        if let value, let number = Int(value) {
            let (sum, overflow) = number.addingReportingOverflow(plus)
            if !overflow { return String(sum) }
        }
        return (value ?? "") + (plus < 0 ? " - \(-plus)" : " + \(plus)")
    }

    /// How many copies of `bytes` a variable's `value` asks for, within the 16 MiB a
    /// repetition makes at most; none when the value is not a whole number.
    package static func times(_ value: String?, of bytes: [UInt8]) -> Int {
        guard let value, let times = Int(value), times > 0 else { return 0 }
        return min(times, largestRepetition / max(bytes.count, 1))
    }

    /// The most bytes `"…" * N` may make.
    package static let largestRepetition = 16 << 20

    /// The bytes a rendering reserves beyond its literal text.
    static let roomForValues = 32

    package func renderString(_ lookup: (String) -> String?) -> String {
        String(decoding: render(lookup), as: UTF8.self)
    }

    /// The values given from outside the scenario (`--var`, the environment, `--vars-file`) that
    /// name variables themselves (`"./my-server --port {port}"`), as templates expanded where
    /// their variable is used; a value that names none is taken as it is, and is not here.
    package static func given(_ values: [String: String]) -> [String: Template] {
        var templates: [String: Template] = [:]
        for (name, value) in values {
            let template = word(value, at: SourceLocation(file: "--var \(name)", line: 1, column: 1))
            if !template.variables.isEmpty { templates[name] = template }
        }
        return templates
    }

    /// Splits a bare word such as `{host}:{port}` into literal text and `{name}` variables.
    /// A brace that does not enclose an identifier stays literal text.
    package static func word(_ text: String, at location: SourceLocation) -> Template {
        var parts: [Part] = []
        let scalars = Array(text.unicodeScalars)
        var literal = ""
        var index = 0
        while index < scalars.count {
            if scalars[index] == "{", let close = Identifier.closingBrace(in: scalars, from: index + 1) {
                if !literal.isEmpty { parts.append(.bytes(Array(literal.utf8))); literal = "" }
                parts.append(.interpolation(String(scalars: scalars[(index + 1)..<close]), at: location.advanced(by: index + 1)))
                index = close + 1
            } else {
                literal.unicodeScalars.append(scalars[index])
                index += 1
            }
        }
        if !literal.isEmpty { parts.append(.bytes(Array(literal.utf8))) }
        return Template(parts: parts)
    }
}

extension Template.Part {
    /// The part `{TEXT}` stands for: a variable, with the whole number `+ N` or `- N` adds.
    package static func interpolation(_ text: String, at location: SourceLocation) -> Template.Part {
        let (name, offset) = Identifier.sum(text)
        return .variable(name, plus: offset, location)
    }
}
