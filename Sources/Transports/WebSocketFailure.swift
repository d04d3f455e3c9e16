import NIOWebSocket

/// How the WebSocket servers here close on an error of the frames: 1009 for a message over the
/// maximum (in one frame, or its fragments joined), 1007 for text that is not UTF-8, 1002 for
/// any other breach of RFC 6455.
enum WebSocketFailure {
    static func closeCode(for error: Error) -> UInt16 {
        if let breach = error as? WebSocketFrameRules.Breach { return breach.code }
        let tooLarge = (error as? NIOWebSocketFrameAggregator.Error).map { $0 == .accumulatedFrameSizeIsTooLarge || $0 == .tooManyFragments }
            ?? ((error as? NIOWebSocketError) == .invalidFrameLength)
        return tooLarge ? 1009 : 1002
    }
}
