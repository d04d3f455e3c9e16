import NIOCore
import NIOSSL
import NIOTLS
import ProbeFraming

/// Sits above the TLS layer and tells the step that opened the connection (or `starttls`) how
/// the handshake went. Afterwards it makes the peer's close what TLS says it is: close_notify
/// and then FIN is the end of the input (held back until the FIN comes), and a FIN without
/// close_notify the inbound end `.truncated`. The peer's close_notify is answered at once with
/// the probe's own (RFC 5246 7.2.1), as a peer doing a bidirectional shutdown waits for it;
/// TCP stays open both ways until the scenario ends it.
/// All state is touched on the channel's event loop only.
final class TLSHandshakeWatch: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The ALPN protocol agreed on, or the error the handshake failed with.
    let done: EventLoopPromise<String?>
    private var finished = false
    /// The TLS layer reported the peer's close_notify; the FIN is still to come.
    private var closeNotifyWithoutFIN = false
    private var tcpClosed = false
    /// The peer's FIN came without close_notify: there is nothing to answer.
    private var truncated = false

    private let tap: TLSRecordTap

    init(on loop: EventLoop, tap: TLSRecordTap) {
        done = loop.makePromise()
        self.tap = tap
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted(let negotiated) = event, !finished {
            finished = true
            done.succeed(negotiated)
        }
        if case ChannelEvent.inputClosed = event, !tcpClosed {
            guard !closeNotifyWithoutFIN, !truncated else { return }
            closeNotifyWithoutFIN = true
            tap.keepingTCPOpen { context.close(mode: .output, promise: nil) }
            return
        }
        if event is TLSRecordTap.TCPInputClosed {
            tcpClosed = true
            if closeNotifyWithoutFIN { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if !finished {
            finished = true
            done.fail(error)
        } else if case NIOSSLError.uncleanShutdown? = error as? NIOSSLError {
            truncated = true
            context.fireUserInboundEventTriggered(InboundEnd.truncated)
            return
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(TLSHandshakeFailure.Closed())
        context.fireChannelInactive()
    }

    /// Ends the wait with `error` unless the handshake already ended (a timeout, or the close).
    func fail(_ error: Error) {
        guard !finished else { return }
        finished = true
        done.fail(error)
    }
}
