/// What `send preface` and `send frame TYPE …` put on an HTTP/2 connection (RFC 9113 §3.4, §6).
package enum HTTP2Send: Sendable, Hashable {
    /// The client's connection preface, `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`.
    case preface
    case frame(HTTP2FrameSend)

    package var templates: [Template] {
        guard case .frame(let frame) = self else { return [] }
        return frame.templates
    }
}
