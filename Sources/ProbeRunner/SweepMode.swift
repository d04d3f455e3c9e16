/// Where a `split sweep` is in a run: finding the message, or splitting it at one offset.
enum SweepMode: Sendable, Equatable {
    case discover
    case offset(Int)
}
