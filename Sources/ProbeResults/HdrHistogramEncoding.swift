import CompressNIO
import FoundationEssentials
import Histogram
import NIOCore

/// HdrHistogram's own compressed encoding of a histogram, as its tools read and write it (the
/// Java `HistogramLogProcessor`, Python's `hdrhistogram`): the V2 encoding (a 40-byte header,
/// then each count as a ZigZag LEB128 number, a run of empty counts as its negated length),
/// deflated with a zlib header behind an 8-byte header of its own, in base64. A part of a load
/// carries each block's latencies this way; `merge` adds the parts' histograms exactly.
package enum HdrHistogramEncoding {
    static let encodingCookie: UInt32 = 0x1c84_9303 | 0x10
    static let compressedCookie: UInt32 = 0x1c84_9304 | 0x10
    static let headerSize = 40

    /// Why a text is not a histogram this encoding reads.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    package static func encode(_ histogram: Histogram<UInt64>) -> String {
        let layout = Layout(histogram)
        var counts: [UInt64] = []
        for recorded in histogram.recordedValues() {
            let index = layout.index(of: recorded.value)
            if counts.count <= index { counts += repeatElement(0, count: index + 1 - counts.count) }
            counts[index] += recorded.count
        }
        var payload = ByteBuffer()
        payload.writeInteger(encodingCookie)
        payload.writeInteger(UInt32(0))
        payload.writeInteger(Int32(0)) // the normalizing index offset
        payload.writeInteger(Int32(histogram.numberOfSignificantValueDigits.rawValue))
        payload.writeInteger(histogram.lowestDiscernibleValue)
        payload.writeInteger(histogram.highestTrackableValue)
        payload.writeInteger(Double(1).bitPattern) // the integer to double conversion ratio
        var index = 0
        while index < counts.count {
            var zeros = 0
            while index + zeros < counts.count, counts[index + zeros] == 0 { zeros += 1 }
            if zeros > 1 {
                writeZigZag(-Int64(zeros), to: &payload)
                index += zeros
            } else {
                writeZigZag(Int64(counts[index]), to: &payload)
                index += 1
            }
        }
        payload.setInteger(UInt32(payload.readableBytes - headerSize), at: 4)
        // zlib on a buffer it is given cannot fail but for lack of room, which `compress` sizes.
        let deflated = try! payload.compress(with: .zlib())
        var whole = ByteBuffer()
        whole.writeInteger(compressedCookie)
        whole.writeInteger(UInt32(deflated.readableBytes))
        whole.writeImmutableBuffer(deflated)
        return Data(whole.readableBytesView).base64EncodedString()
    }

    /// The histogram `text` encodes. The encoding keeps each value's bucket, not the value: with
    /// `exactMax`, the largest value recorded (which a part's report carries beside it), the
    /// histogram's maximum is that value again, not its bucket's, and percentiles that reach it
    /// come back as they were.
    package static func decode(_ text: String, exactMax: UInt64? = nil) throws -> Histogram<UInt64> {
        guard let data = Data(base64Encoded: text) else { throw Invalid(description: "not base64") }
        var whole = ByteBuffer(bytes: data)
        guard let cookie = whole.readInteger(as: UInt32.self), cookie & ~0xf0 == compressedCookie & ~0xf0,
              let length = whole.readInteger(as: UInt32.self), Int(length) <= whole.readableBytes else {
            throw Invalid(description: "not HdrHistogram's compressed encoding (V2)")
        }
        var deflated = whole.readSlice(length: Int(length))!
        guard var payload = try? deflated.decompress(with: .zlib(), maxSize: 64 << 20) else { throw Invalid(description: "its zlib stream is corrupt") }
        guard payload.readableBytes >= headerSize, let inner = payload.readInteger(as: UInt32.self), inner & ~0xf0 == encodingCookie & ~0xf0,
              let payloadLength = payload.readInteger(as: Int32.self), let offset = payload.readInteger(as: Int32.self),
              let digits = payload.readInteger(as: Int32.self), let lowest = payload.readInteger(as: UInt64.self),
              payload.readInteger(as: UInt64.self) != nil, let ratio = payload.readInteger(as: UInt64.self), // the highest value: it resizes
              Int(payloadLength) <= payload.readableBytes else {
            throw Invalid(description: "its header is not a V2 histogram's")
        }
        guard offset == 0, lowest == 1, Double(bitPattern: ratio) == 1, let significant = SignificantDigits(rawValue: Int8(clamping: digits)) else {
            throw Invalid(description: "a histogram of lowest value \(lowest), \(digits) digits and offset \(offset): only lowest 1, offset 0 are read")
        }
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: significant)
        let layout = Layout(histogram)
        var counts = payload.readSlice(length: Int(payloadLength))!
        var index = 0
        while counts.readableBytes > 0 {
            guard let value = readZigZag(from: &counts) else { throw Invalid(description: "a count runs past the end") }
            if value < 0 {
                index += Int(-value)
            } else {
                if value > 0 {
                    var count = UInt64(value)
                    if let exactMax, layout.index(of: exactMax) == index {
                        _ = histogram.record(exactMax)
                        count -= 1
                    }
                    if count > 0 { _ = histogram.record(layout.value(at: index), count: count) }
                }
                index += 1
            }
        }
        return histogram
    }

    /// Where HdrHistogram keeps each value's count: buckets of a power of two, each cut into
    /// sub-buckets fine enough for the significant digits (`countsArrayIndex` in its sources).
    struct Layout {
        let subBucketHalfCountMagnitude: Int
        let leadingZeroCountBase: Int
        let subBucketMask: UInt64

        init(_ histogram: Histogram<UInt64>) {
            var largestWithSingleUnitResolution = 2
            for _ in 0..<histogram.numberOfSignificantValueDigits.rawValue { largestWithSingleUnitResolution *= 10 }
            // ceil(log2(largest)): the bits of largest - 1.
            let subBucketCountMagnitude = Int.bitWidth - (largestWithSingleUnitResolution - 1).leadingZeroBitCount
            subBucketHalfCountMagnitude = max(subBucketCountMagnitude, 1) - 1
            leadingZeroCountBase = 64 - subBucketCountMagnitude
            subBucketMask = UInt64(1 << subBucketCountMagnitude) - 1
        }

        func index(of value: UInt64) -> Int {
            let bucket = leadingZeroCountBase - (value | subBucketMask).leadingZeroBitCount
            let subBucket = Int(value >> UInt64(bucket))
            return ((bucket + 1) << subBucketHalfCountMagnitude) + subBucket - (1 << subBucketHalfCountMagnitude)
        }

        func value(at index: Int) -> UInt64 {
            var bucket = (index >> subBucketHalfCountMagnitude) - 1
            var subBucket = (index & ((1 << subBucketHalfCountMagnitude) - 1)) + (1 << subBucketHalfCountMagnitude)
            if bucket < 0 {
                subBucket -= 1 << subBucketHalfCountMagnitude
                bucket = 0
            }
            return UInt64(subBucket) << UInt64(bucket)
        }
    }

    private static func writeZigZag(_ value: Int64, to buffer: inout ByteBuffer) {
        var bits = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while bits >= 0x80 {
            buffer.writeInteger(UInt8(truncatingIfNeeded: bits) | 0x80)
            bits >>= 7
        }
        buffer.writeInteger(UInt8(bits))
    }

    private static func readZigZag(from buffer: inout ByteBuffer) -> Int64? {
        var bits: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = buffer.readInteger(as: UInt8.self) {
            bits |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return Int64(bitPattern: bits >> 1) ^ -Int64(bitPattern: bits & 1) }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }
}
