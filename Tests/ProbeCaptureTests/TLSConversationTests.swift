import Crypto
import ProbeFraming
import ProbeScript
import Testing
@testable import ProbeCapture

/// TLS 1.3 conversations built here, record by record, with keys derived from secrets the test
/// chooses: what `TLSConversation` opens, where it switches keys (Finished, KeyUpdate), where
/// TLS begins after a plaintext prefix, and what a record that does not open leaves unread.
@Suite struct TLSConversationTests {
    static let suite = TLSSuiteParameters(suite: 0x1301, version: 0x0304)!
    static let clientRandom = [UInt8](repeating: 1, count: 32)
    static let secrets: [String: [UInt8]] = [
        "CLIENT_HANDSHAKE_TRAFFIC_SECRET": .init(repeating: 2, count: 32), "SERVER_HANDSHAKE_TRAFFIC_SECRET": .init(repeating: 3, count: 32),
        "CLIENT_TRAFFIC_SECRET_0": .init(repeating: 4, count: 32), "SERVER_TRAFFIC_SECRET_0": .init(repeating: 5, count: 32),
    ]

    static var keyLog: TLSKeyMaterial {
        TLSKeyMaterial(lines: secrets.map { "\($0.key) \(hex(clientRandom)) \(hex($0.value))" })
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined() }

    static func record(_ type: UInt8, _ fragment: [UInt8]) -> [UInt8] {
        [type, 3, 3, UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)] + fragment
    }

    static func handshake(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        [type, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    static let clientHello = record(22, handshake(1, [3, 3] + clientRandom + [0, 0, 2, 0x13, 0x01, 1, 0, 0, 0]))
    static let serverHello = record(22, handshake(2, [3, 3] + [UInt8](repeating: 9, count: 32) + [0, 0x13, 0x01, 0, 0, 6, 0, 43, 0, 2, 3, 4]))

    /// One encrypted record: `content` and its inner `type`, sealed with `secret`'s keys at `sequence`.
    static func sealed(_ content: [UInt8], type: UInt8, secret: [UInt8], sequence: UInt64) throws -> [UInt8] {
        let keys = TLSKeySchedule.keys(trafficSecret: secret, suite)
        var nonce = keys.iv
        let counter = withUnsafeBytes(of: sequence.bigEndian, Array.init)
        for index in 0..<8 { nonce[4 + index] ^= counter[index] }
        let inner = content + [type]
        let header: [UInt8] = [23, 3, 3, UInt8((inner.count + 16) >> 8), UInt8((inner.count + 16) & 0xFF)]
        let box = try AES.GCM.seal(inner, using: SymmetricKey(data: keys.key), nonce: AES.GCM.Nonce(data: nonce), authenticating: header)
        return header + Array(box.ciphertext) + Array(box.tag)
    }

    static let finished = handshake(20, [UInt8](repeating: 0, count: 32))

    /// The client's side: CCS, Finished, "hi", a KeyUpdate, "after"; the server's: its
    /// Finished, a session ticket, "hello".
    static func streams(prefix: [UInt8] = []) throws -> (client: [UInt8], server: [UInt8]) {
        let clientTraffic = secrets["CLIENT_TRAFFIC_SECRET_0"]!
        let updated = TLSKeySchedule.expandLabel(clientTraffic, "traffic upd", length: 32, .sha256)
        let client = prefix + clientHello + record(20, [1])
            + (try sealed(finished, type: 22, secret: secrets["CLIENT_HANDSHAKE_TRAFFIC_SECRET"]!, sequence: 0))
            + (try sealed(Array("hi".utf8), type: 23, secret: clientTraffic, sequence: 0))
            + (try sealed(handshake(24, [0]), type: 22, secret: clientTraffic, sequence: 1))
            + (try sealed(Array("after".utf8), type: 23, secret: updated, sequence: 0))
        let server = prefix + serverHello
            + (try sealed(finished, type: 22, secret: secrets["SERVER_HANDSHAKE_TRAFFIC_SECRET"]!, sequence: 0))
            + (try sealed(handshake(4, [0, 0, 0, 0]), type: 22, secret: secrets["SERVER_TRAFFIC_SECRET_0"]!, sequence: 0))
            + (try sealed(Array("hello".utf8), type: 23, secret: secrets["SERVER_TRAFFIC_SECRET_0"]!, sequence: 1))
        return (client, server)
    }

    @Test func opensEveryRecordAndSwitchesKeysWhereTLSSays() throws {
        let (client, server) = try Self.streams()
        let conversation = TLSConversation(client: client, server: server, keys: Self.keyLog)
        #expect(conversation.problem == nil)
        #expect(conversation.version == 0x0304 && conversation.cipherSuite == 0x1301)
        #expect(conversation.clientStart == 0 && conversation.serverStart == 0)
        #expect(conversation.clientRecords.map(\.contentType) == [.handshake, .changeCipherSpec, .handshake, .applicationData, .handshake, .applicationData])
        #expect(conversation.clientRecords.map(\.encrypted) == [false, false, true, true, true, true])
        #expect(conversation.clientRecords.allSatisfy { $0.opened })
        #expect(conversation.clientRecords.filter { $0.contentType == .applicationData }.map(\.plaintext) == [Array("hi".utf8), Array("after".utf8)])
        #expect(conversation.clientRecords[2].plaintext == Self.finished)
        #expect(conversation.serverRecords.map(\.contentType) == [.handshake, .handshake, .handshake, .applicationData])
        #expect(conversation.serverRecords.last?.plaintext == Array("hello".utf8))
        let ranges = conversation.clientRecords.map(\.streamRange)
        #expect(ranges.first == 0..<Self.clientHello.count && ranges.last?.upperBound == client.count)
        let rows = TLSRecordRows.rows(conversation, client: DirectionTrace(segments: []), server: DirectionTrace(segments: []), start: 0)
        #expect(rows.contains { $0.hasSuffix("→ handshake KeyUpdate (decrypted)") } && rows.contains { $0.hasSuffix("← handshake NewSessionTicket (decrypted)") }, "\(rows)")
    }

    /// After STARTTLS (or anything before), TLS is read from the first hello on, past a byte 22
    /// that is not a record's.
    @Test func tlsStartsAfterAPlaintextPrefix() throws {
        let prefix = Array("STARTTLS\r\n".utf8) + [22, 3, 3, 0, 4, 9]
        let (client, server) = try Self.streams(prefix: prefix)
        let conversation = TLSConversation(client: client, server: server, keys: Self.keyLog)
        #expect(conversation.problem == nil)
        #expect(conversation.clientStart == prefix.count && conversation.serverStart == prefix.count)
        #expect(conversation.clientRecords.first?.streamRange.lowerBound == prefix.count)
    }

    /// A record that does not open leaves it and every later record of its side unread, and
    /// names it; the other side is still read.
    @Test func aRecordThatDoesNotOpenLeavesTheRestUnread() throws {
        var (client, server) = try Self.streams()
        let thirdRecord = Self.clientHello.count + 6
        client[thirdRecord + 10] ^= 1
        let conversation = TLSConversation(client: client, server: server, keys: Self.keyLog)
        #expect(conversation.problem == "the client's record 3 (at stream offset \(thirdRecord)) did not decrypt with the logged keys")
        #expect(conversation.clientRecords[2...].allSatisfy { $0.encrypted && !$0.opened && $0.contentType == nil && $0.plaintext.isEmpty })
        #expect(conversation.clientRecords[1].opened && conversation.clientRecords[1].contentType == .changeCipherSpec)
        #expect(conversation.serverRecords.last?.plaintext == Array("hello".utf8))
        let none = TLSConversation(client: client, server: server, keys: TLSKeyMaterial(lines: [String]()))
        #expect(none.problem == "the key log holds no TLS 1.3 secrets for this connection")
        #expect(none.clientRecords.filter { $0.encrypted }.allSatisfy { !$0.opened && $0.contentType == nil })
        #expect(none.version == 0x0304)
    }

    /// TLS 1.2 with AES-128-GCM: keys from the master secret and both randoms, records after
    /// each side's ChangeCipherSpec opened with their explicit nonces, a zero-length record
    /// among them; a broken record leaves the rest of its side unread, handshake records too.
    @Test func tls12RecordsOpenAfterChangeCipherSpec() throws {
        let master = [UInt8](repeating: 7, count: 48)
        let serverRandom = [UInt8](repeating: 9, count: 32)
        let suite = TLSSuiteParameters(suite: 0xC02B, version: 0x0303)!
        let keys = TLSKeySchedule.keys(masterSecret: master, clientRandom: Self.clientRandom, serverRandom: serverRandom, suite)
        func sealed(_ content: [UInt8], type: UInt8, _ key: TLSKeySchedule.TrafficKeys, sequence: UInt64) throws -> [UInt8] {
            let explicit = withUnsafeBytes(of: sequence.bigEndian, Array.init)
            let aad = explicit + [type, 3, 3, UInt8(content.count >> 8), UInt8(content.count & 0xFF)]
            let box = try AES.GCM.seal(content, using: SymmetricKey(data: key.key), nonce: AES.GCM.Nonce(data: key.iv + explicit), authenticating: aad)
            return Self.record(type, explicit + Array(box.ciphertext) + Array(box.tag))
        }
        let hello = Self.record(22, Self.handshake(2, [3, 3] + serverRandom + [0, 0xC0, 0x2B, 0]))
        let closeNotify: [UInt8] = [1, 0]
        var client = Self.clientHello + Self.record(20, [1]) + (try sealed(Self.finished, type: 22, keys.client, sequence: 0))
            + (try sealed([], type: 23, keys.client, sequence: 1)) + (try sealed(Array("hi".utf8), type: 23, keys.client, sequence: 2))
            + (try sealed(closeNotify, type: 21, keys.client, sequence: 3))
        let server = hello + Self.record(20, [1]) + (try sealed(Self.finished, type: 22, keys.server, sequence: 0))
            + (try sealed(Array("hello".utf8), type: 23, keys.server, sequence: 1))
        let log = TLSKeyMaterial(lines: ["CLIENT_RANDOM \(Self.hex(Self.clientRandom)) \(Self.hex(master))"])
        let conversation = TLSConversation(client: client, server: server, keys: log)
        #expect(conversation.problem == nil && conversation.version == 0x0303 && conversation.cipherSuite == 0xC02B)
        #expect(conversation.clientRecords.map(\.encrypted) == [false, false, true, true, true, true])
        #expect(conversation.clientRecords.allSatisfy { $0.opened })
        #expect(conversation.clientRecords.map(\.plaintext)[2...] == [Self.finished, [], Array("hi".utf8), closeNotify])
        #expect(conversation.clientRecords.last?.contentType == .alert)
        #expect(conversation.serverRecords.last?.plaintext == Array("hello".utf8))
        client[Self.clientHello.count + 6 + 20] ^= 1
        let broken = TLSConversation(client: client, server: server, keys: log)
        #expect(broken.problem?.hasPrefix("the client's record 3 ") == true, "\(broken.problem ?? "")")
        let unlogged = TLSConversation(client: client, server: server, keys: TLSKeyMaterial(lines: [String]()))
        #expect(unlogged.problem == "the key log holds no TLS 1.2 master secret for this connection")
        #expect(broken.clientRecords[2...].allSatisfy { $0.encrypted && !$0.opened && $0.contentType == nil && $0.plaintext.isEmpty })
    }

    /// Hellos that cannot be read, and a suite tcpprobe does not decrypt, say so.
    @Test func unreadableHellosAndUnknownSuitesAreProblems() {
        let cbc = Self.record(22, Self.handshake(2, [3, 3] + [UInt8](repeating: 9, count: 32) + [0, 0x00, 0x2F, 0]))
        let unknown = TLSConversation(client: Self.clientHello, server: cbc, keys: Self.keyLog)
        #expect(unknown.problem == "TLS 1.2 with TLS_RSA_WITH_AES_128_CBC_SHA is not a suite tcpprobe decrypts")
        let cut = TLSConversation(client: Array(Self.clientHello.prefix(20)), server: Self.serverHello, keys: Self.keyLog)
        #expect(cut.problem == "the hellos could not be read from the capture")
        let none = TLSConversation(client: Array("hello".utf8), server: Self.serverHello, keys: Self.keyLog)
        #expect(none.problem == "no TLS handshake (ClientHello and ServerHello) in the captured streams")
    }

    /// The plaintext before TLS, cut where TLS begins even inside a segment; records carry no
    /// TCP flags of the segment that completed them.
    @Test func applicationTraceCutsThePlaintextWhereTLSBegins() {
        func segment(_ sequence: UInt32, _ payload: [UInt8], _ flags: TCPSegment.Flags = [.psh, .ack]) -> TCPSegment {
            TCPSegment(timestamp: Double(sequence), sourceAddress: "127.0.0.1", destinationAddress: "127.0.0.1", sourcePort: 1, destinationPort: 2,
                       sequence: sequence, acknowledgement: 0, flags: flags, window: 100, payload: payload)
        }
        let record = TLSConversation.Record(outerType: 23, contentType: .applicationData, streamRange: 6..<12, plaintext: Array("x".utf8), encrypted: true, opened: true)
        let tcp = DirectionTrace(segments: [segment(0, [1, 2, 3, 4]), segment(4, [5, 6, 22, 3, 3, 0]), segment(10, [1, 0], [.fin, .psh, .ack])])
        let trace = TLSApplicationTrace(records: [record], tlsStart: 6, tcp: tcp).trace
        #expect(trace.stream == [1, 2, 3, 4, 5, 6] + Array("x".utf8))
        #expect(trace.dataSegments.map(\.segment.length) == [4, 2, 1])
        #expect(!trace.hasFIN)
        let atStart = TLSApplicationTrace(records: [], tlsStart: 4, tcp: tcp).trace
        #expect(atStart.stream == [1, 2, 3, 4])
    }

    @Test func zeroLengthRecordsAndBoundaries() {
        var reader = TLSRecordReader(keeping: [.applicationData])
        let records = reader.feed([23, 3, 3, 0, 0] + [23, 3, 3, 0, 1, 7])
        #expect(records.map(\.length) == [0, 1] && records.map(\.offset) == [0, 5] && records.last?.fragment == [7])
        // A zero-length record is whole with its header, though nothing follows it yet.
        #expect(reader.feed([23, 3, 3, 0, 0]).map(\.length) == [0])
        // The longest TLSCiphertext is 2^14 + 2048 bytes (RFC 5246 §6.2.3): a header over it is not TLS.
        var longest = TLSRecordReader(keeping: [.applicationData])
        #expect(longest.feed([23, 3, 3, 0x48, 0x00] + [UInt8](repeating: 1, count: 18_432)).map(\.length) == [18_432] && !longest.notTLS)
        var over = TLSRecordReader(keeping: [.applicationData])
        #expect(over.feed([23, 3, 3, 0x48, 0x01]).isEmpty && over.notTLS)
        // A hello is found from its record header and its first handshake byte: six bytes.
        #expect(TLSConversation.helloStart(in: [22, 3, 1, 0, 4, 1], type: 1) == 0)
        #expect(TLSConversation.helloStart(in: [22, 3, 1, 0, 4], type: 1) == nil)
        #expect(MessageUnits.length(LengthHeader(width: 2)).messages(in: [0, 0, 0, 1, 5]).map(\.range) == [0..<2, 2..<5])
        #expect(MessageUnits.length(LengthHeader(width: 2)).messages(in: [0, 0]).map(\.range) == [0..<2])
    }
}
