/// `read slowly N byte(s) every D (for D | until eof | total N byte(s)|SIZE)`.
package struct SlowRead: Sendable, Hashable {
    package enum Stop: Sendable, Hashable {
        case after(Argument<Duration>)
        case eof
        case total(Argument<Int>)
    }

    package var bytesPerRead: Argument<Int>
    package var interval: Argument<Duration>
    package var stop: Stop

    package init(bytesPerRead: Argument<Int>, interval: Argument<Duration>, stop: Stop) {
        self.bytesPerRead = bytesPerRead
        self.interval = interval
        self.stop = stop
    }
}
