import NIOCore
import NIOHTTP1

/// One HTTP/2 stream of `linechat serve --http2`: each request, read to its end, is answered
/// 200 with a small HTML page (HEAD without its body), but `/empty`, answered 204 with none (a
/// page the suite's flow-control cases skip, as h2spec does).
final class HTTP2PageResponder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The page: long enough for the suite's flow-control cases, which read it a byte at a time.
    static let page = "<!DOCTYPE html>\n<title>linechat</title>\n<p>linechat's HTTP/2 server answers every request with this page.</p>\n"

    private var method: HTTPMethod = .GET
    private var empty = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): (method, empty) = (head.method, head.uri == "/empty")
        case .body: break
        case .end where empty:
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: .noContent))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .end:
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: "text/html")
            headers.add(name: "content-length", value: String(Self.page.utf8.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: .ok, headers: headers))), promise: nil)
            if method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: Self.page)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    /// A stream's errors are NIOHTTP2's to answer (RST_STREAM); nothing more to do here.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {}
}
