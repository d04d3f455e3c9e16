import Foundation
import Histogram
import ProbeResults
import Testing
import TestSupport

/// A part's latencies in HdrHistogram's own compressed encoding: what its Python implementation
/// reads, what it writes read back, and histograms added exactly after the trip.
@Suite struct HdrHistogramEncodingTests {
    /// 1..1000 ms in microseconds, and a spike.
    static func sample() -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        for milliseconds in 1...1000 { _ = histogram.record(UInt64(milliseconds) * 1000) }
        _ = histogram.record(7_654_321, count: 3)
        return histogram
    }

    @Test func aHistogramComesBackTheSame() throws {
        let histogram = Self.sample()
        let decoded = try HdrHistogramEncoding.decode(HdrHistogramEncoding.encode(histogram), exactMax: histogram.maxRecorded)
        #expect(decoded.totalCount == histogram.totalCount)
        #expect(decoded.maxRecorded == histogram.maxRecorded && decoded.min == histogram.min)
        for percentile in [0.0, 50, 90, 99, 99.9, 99.99, 100] {
            #expect(decoded.valueAtPercentile(percentile) == histogram.valueAtPercentile(percentile), "p\(percentile)")
        }
        #expect(Array(decoded.recordedValues().map(\.count)) == Array(histogram.recordedValues().map(\.count)))
        // Without the exact maximum, only the top bucket's value is known.
        let bucketed = try HdrHistogramEncoding.decode(HdrHistogramEncoding.encode(histogram))
        #expect(bucketed.valuesAreEquivalent(bucketed.maxRecorded, histogram.maxRecorded) && bucketed.valueAtPercentile(50) == histogram.valueAtPercentile(50))
    }

    @Test func anEmptyHistogramComesBackEmpty() throws {
        let empty = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        #expect(try HdrHistogramEncoding.decode(HdrHistogramEncoding.encode(empty)).totalCount == 0)
    }

    @Test func whatIsNotAnEncodingIsRefused() {
        #expect(throws: HdrHistogramEncoding.Invalid.self) { try HdrHistogramEncoding.decode("not base64!") }
        #expect(throws: HdrHistogramEncoding.Invalid.self) { try HdrHistogramEncoding.decode(Data([1, 2, 3, 4, 5, 6, 7, 8]).base64EncodedString()) }
    }

    /// Python's `hdrh` decodes what tcpprobe encodes to the same counts and percentiles, and
    /// tcpprobe decodes what it encodes.
    @Test(.hdrhistogram) func hdrhistogramsOwnImplementationReadsAndWritesIt() throws {
        let histogram = Self.sample()
        let script = """
            import sys
            from hdrh.histogram import HdrHistogram
            h = HdrHistogram.decode(sys.argv[1])
            print(h.get_total_count(), h.get_max_value(), *[h.get_value_at_percentile(p) for p in (50, 90, 99, 99.9)])
            mine = HdrHistogram(1, 3600 * 1000 * 1000, 3)
            for v in range(100, 200100, 100): mine.record_value(v)
            mine.record_value(5_000_000, 7)
            print(mine.encode().decode())
            """
        let output = try Self.python(script, HdrHistogramEncoding.encode(histogram))
        let lines = output.split(separator: "\n").map(String.init)
        let numbers = lines[0].split(separator: " ").compactMap { UInt64($0) }
        let expected = [histogram.totalCount, histogram.highestEquivalentForValue(histogram.maxRecorded)]
            + [50, 90, 99, 99.9].map { histogram.highestEquivalentForValue(histogram.valueAtPercentile($0)) }
        #expect(numbers == expected)
        let theirs = try HdrHistogramEncoding.decode(lines[1])
        #expect(theirs.totalCount == 2000 + 7)
        // The 1,004th of 2,007 values is 100,400, given as its bucket's highest equivalent.
        #expect(theirs.valueAtPercentile(50) == theirs.highestEquivalentForValue(100_400))
        #expect(theirs.valuesAreEquivalent(theirs.maxRecorded, 5_000_000))
    }

    /// HdrHistogram's Java `HistogramLogProcessor` reads the encoding from a histogram log (one
    /// interval, as docs/load.md shows how to write from a part's report) and gives the same
    /// count and percentiles.
    @Test(.hdrhistogramJava) func hdrhistogramsJavaLogProcessorReadsIt() throws {
        let histogram = Self.sample()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("part.hlog")
        try """
            #[StartTime: 1764201600.000 (seconds since epoch)]
            "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
            0.000,1.000,7.654,\(HdrHistogramEncoding.encode(histogram))

            """.write(to: log, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/java")
        process.arguments = ["-cp", "/usr/share/java/hdrhistogram.jar", "org.HdrHistogram.HistogramLogProcessor", "-i", log.path,
                             "-o", folder.appendingPathComponent("out").path, "-outputValueUnitRatio", "1"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // "1.000: I:2003 ( 50% 90% Max ) T:2003 ( 50% 90% 99% 99.9% 99.99% Max )", values in microseconds.
        let intervals = try String(contentsOf: folder.appendingPathComponent("out"), encoding: .utf8)
        let line = try #require(intervals.split(separator: "\n").first { $0.hasPrefix("1.000:") })
        let total = try #require(line.range(of: "T:")).upperBound
        let numbers = line[total...].split(whereSeparator: { " ()".contains($0) }).compactMap { Double($0) }.map { UInt64($0) }
        let expected = [histogram.totalCount] + [50, 90, 99, 99.9, 99.99].map { histogram.highestEquivalentForValue(histogram.valueAtPercentile($0)) }
            + [histogram.highestEquivalentForValue(histogram.maxRecorded)]
        #expect(numbers == expected, "\(line)")
    }

    @Test func partsAddUpToTheWholeExactly() throws {
        // Four parts' histograms, added after the trip, equal one histogram of every value.
        var whole = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var merged = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        for part in 0..<4 {
            var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
            for index in 0..<2500 {
                let value = UInt64(1 + (part * 2500 + index) * 37 % 100_000)
                _ = histogram.record(value)
                _ = whole.record(value)
            }
            merged.add(try HdrHistogramEncoding.decode(HdrHistogramEncoding.encode(histogram), exactMax: histogram.maxRecorded))
        }
        #expect(merged.totalCount == whole.totalCount)
        for percentile in [50.0, 90, 99, 99.9, 100] { #expect(merged.valueAtPercentile(percentile) == whole.valueAtPercentile(percentile)) }
    }

    private static func python(_ script: String, _ argument: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, argument]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
