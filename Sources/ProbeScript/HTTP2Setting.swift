/// A SETTINGS parameter, `initial-window-size=65535` or `0x4=65535`.
package struct HTTP2Setting: Sendable, Hashable {
    package var id: Argument<Int>
    package var value: Argument<Int>

    package init(id: Argument<Int>, value: Argument<Int>) {
        self.id = id
        self.value = value
    }
}
