/// `read slowly N byte(s) every D (for D | until eof | total SIZE)`.
public struct SlowRead: Sendable, Hashable {
    public enum Stop: Sendable, Hashable {
        case after(Argument<Duration>)
        case eof
        case total(Argument<Int>)
    }

    public var bytesPerRead: Argument<Int>
    public var interval: Argument<Duration>
    public var stop: Stop

    public init(bytesPerRead: Argument<Int>, interval: Argument<Duration>, stop: Stop) {
        self.bytesPerRead = bytesPerRead
        self.interval = interval
        self.stop = stop
    }
}
