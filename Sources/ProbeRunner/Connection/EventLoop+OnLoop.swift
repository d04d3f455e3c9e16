import NIOCore

extension EventLoop {
    /// `body`'s future: run at once on this loop's thread (a `parallel` copy's step), else
    /// submitted to it. Run at once, a write the socket takes completes in the same turn, and
    /// ten thousand copies starting together hold no queue of pending submits.
    func onLoop<Value: Sendable>(_ body: @escaping @Sendable () -> EventLoopFuture<Value>) -> EventLoopFuture<Value> {
        inEventLoop ? body() : flatSubmit(body)
    }
}
