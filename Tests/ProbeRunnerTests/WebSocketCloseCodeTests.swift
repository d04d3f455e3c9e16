import NIOCore
import NIOEmbedded
@testable import ProbeRunner
import Testing

/// RFC 6455 §7.4: the close codes a peer may send are 1000-1003, 1007-1014 (IANA's) and
/// 3000-4999; 1004, 1005, 1006 and 1015 are reserved and never sent, and 0-999 and 1016-2999
/// are not assigned. A close frame with any other code is a violation, whatever the code.
@Suite struct WebSocketCloseCodeTests {
    private static func allowed(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    @Test func everyCodeFrom0To65535IsJudgedByTheRule() {
        let wrong = (0...65535).filter { WebSocketSession.maySend(closeCode: $0) != Self.allowed($0) }
        #expect(wrong.isEmpty, "judged against the rule: \(wrong.prefix(10))")
    }

    /// A server's close frame with `code` as a client session reads it.
    private func received(_ code: Int) -> Result<WebSocketEvent, WebSocketViolation>? {
        let session = WebSocketSession(role: .client, channel: EmbeddedChannel(), maxMessage: 1024)
        var bytes = ByteBuffer(bytes: [0x88, 0x02, UInt8(code >> 8), UInt8(code & 0xFF)])
        return session.next(from: &bytes, end: nil)
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535])
    func aCodeOutsideTheRuleIsAViolation(_ code: Int) {
        guard case .failure(let violation)? = received(code) else { Issue.record("code \(code) was taken"); return }
        #expect(violation.message.contains("the code \(code), which must never be sent"))
    }

    @Test(arguments: [1000, 1001, 1003, 1007, 1011, 1014, 3000, 4000, 4999])
    func aCodeTheRuleAllowsIsAClose(_ code: Int) {
        guard case .success(.close(let got, _))? = received(code) else { Issue.record("code \(code) was refused"); return }
        #expect(got == code)
    }
}
