/// How far a check that reads the stream (terminator, lines unsplit) has judged a trace: every
/// complete line up to stream offset `end` passed. The next run of the same check on the same
/// trace, grown since, carries on from there, so a check after each of many round trips reads
/// each byte once; on any other trace (built or rebuilt anew) it starts over.
package struct WireProgress: Sendable {
    let traceID: UInt64
    let end: Int
    let lines: Int
}
