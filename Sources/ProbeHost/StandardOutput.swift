import CSpawnExtras

/// The process's standard output as Swift's `print` writes it: through the C stream's buffer.
package enum StandardOutput {
    /// Writes out what `print` has buffered, so that it comes before what follows (a report
    /// written on descriptor 1, a subject's output, the next progress line).
    package static func flush() {
        flush_standard_output()
    }
}
