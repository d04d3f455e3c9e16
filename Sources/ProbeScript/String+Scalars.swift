extension String {
    /// A string of `scalars`, encoded to UTF-8 in one pass: appending scalars to a
    /// `UnicodeScalarView` one by one costs several times more, and the lexer and parser build a
    /// string for every word, name and statement. The bytes are written into the string's own
    /// storage, with no array between.
    init(scalars: some Collection<Unicode.Scalar>) {
        self.init(unsafeUninitializedCapacity: scalars.count * 4) { buffer in
            var count = 0
            for scalar in scalars {
                if scalar.isASCII {
                    buffer[count] = UInt8(truncatingIfNeeded: scalar.value)
                    count += 1
                } else {
                    UTF8.encode(scalar) { buffer[count] = $0; count += 1 }
                }
            }
            return count
        }
    }
}

extension Unicode.Scalar {
    /// 0-9, a-f or A-F, decided without a look-up in the Unicode tables.
    var isHexDigit: Bool {
        ("0"..."9").contains(self) || ("a"..."f").contains(self) || ("A"..."F").contains(self)
    }

    /// a-z or A-Z, decided without a look-up in the Unicode tables.
    var isASCIILetter: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self)
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
