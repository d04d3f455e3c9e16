extension String {
    /// A string of `scalars`, encoded to UTF-8 in one pass: appending scalars to a
    /// `UnicodeScalarView` one by one costs several times more, and the lexer and parser build a
    /// string for every word, name and statement.
    init(scalars: some Collection<Unicode.Scalar>) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for scalar in scalars { bytes.appendUTF8(of: scalar) }
        self.init(decoding: bytes, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Appends `scalar`'s UTF-8 encoding.
    mutating func appendUTF8(of scalar: Unicode.Scalar) {
        if scalar.isASCII {
            append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
            UTF8.encode(scalar) { append($0) }
        }
    }
}
