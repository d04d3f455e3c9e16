/// A TLS connection read back from its capture with its keys: both directions' records, the
/// encrypted ones opened. TLS may start mid-stream (`starttls`): each direction is read from its
/// first hello on. A record that does not open stops that direction and names why in `problem`,
/// so a judgement on it is inconclusive, never a pass.
package struct TLSConversation: Sendable {
    /// One record as it crossed the wire, and what it held.
    package struct Record: Sendable {
        /// The type in its header (23 for every encrypted TLS 1.3 record).
        package var outerType: UInt8
        /// The real type: the header's, or TLS 1.3's inner one; nil when not opened.
        package var contentType: TLSContentType?
        /// Where the record (header included) lies in its direction's TCP stream.
        package var streamRange: Range<Int>
        /// The plaintext: the fragment of a record sent in the clear, or the opened content.
        package var plaintext: [UInt8]
        package var encrypted: Bool
        /// False for an encrypted record that did not open (or came after one that did not).
        package var opened: Bool
    }

    package private(set) var clientRecords: [Record] = []
    package private(set) var serverRecords: [Record] = []
    /// Where TLS began in each TCP stream (after a STARTTLS exchange, past 0).
    package private(set) var clientStart = 0
    package private(set) var serverStart = 0
    /// 0x0303 or 0x0304, from the ServerHello.
    package private(set) var version: UInt16?
    package private(set) var cipherSuite: UInt16?
    /// Why some records could not be read: nil when every one was.
    package private(set) var problem: String?

    /// Reads the TLS of the client's and the server's streams with `keys`.
    package init(client: [UInt8], server: [UInt8], keys: TLSKeyMaterial) {
        guard let clientStart = Self.helloStart(in: client, type: 1), let serverStart = Self.helloStart(in: server, type: 2) else {
            problem = "no TLS handshake (ClientHello and ServerHello) in the captured streams"
            return
        }
        (self.clientStart, self.serverStart) = (clientStart, serverStart)
        let clientRaw = Self.records(of: client, from: clientStart)
        let serverRaw = Self.records(of: server, from: serverStart)
        clientRecords = clientRaw.map(Self.clear)
        serverRecords = serverRaw.map(Self.clear)
        guard let clientHello = ClientHello(handshake: Self.leadingHandshake(clientRaw)),
              let serverHello = ServerHello(handshake: Self.leadingHandshake(serverRaw)) else {
            problem = "the hellos could not be read from the capture"
            return
        }
        version = serverHello.version
        cipherSuite = serverHello.cipherSuite
        guard let suite = TLSSuiteParameters(suite: serverHello.cipherSuite, version: serverHello.version) else {
            problem = "TLS \(serverHello.versionName) with \(TLSCipherSuite.name(of: serverHello.cipherSuite)) is not a suite tcpprobe decrypts"
            return
        }
        let random = clientHello.random
        if serverHello.version == 0x0304 {
            func secret(_ label: String) -> [UInt8]? { keys.secret(label, clientRandom: random) }
            guard let clientHandshake = secret("CLIENT_HANDSHAKE_TRAFFIC_SECRET"), let serverHandshake = secret("SERVER_HANDSHAKE_TRAFFIC_SECRET"),
                  let clientTraffic = secret("CLIENT_TRAFFIC_SECRET_0"), let serverTraffic = secret("SERVER_TRAFFIC_SECRET_0") else {
                problem = "the key log holds no TLS 1.3 secrets for this connection"
                return
            }
            let clientProblem = Self.open13(&clientRecords, clientRaw, "client", handshake: clientHandshake, traffic: clientTraffic, suite)
            let serverProblem = Self.open13(&serverRecords, serverRaw, "server", handshake: serverHandshake, traffic: serverTraffic, suite)
            problem = clientProblem ?? serverProblem
        } else {
            guard let master = keys.secret("CLIENT_RANDOM", clientRandom: random) else {
                problem = "the key log holds no TLS 1.2 master secret for this connection"
                return
            }
            let directions = TLSKeySchedule.keys(masterSecret: master, clientRandom: random, serverRandom: serverHello.random, suite)
            let clientProblem = Self.open12(&clientRecords, clientRaw, "client", TLSRecordDecrypter(keys: directions.client, suite: suite, version: 0x0303))
            let serverProblem = Self.open12(&serverRecords, serverRaw, "server", TLSRecordDecrypter(keys: directions.server, suite: suite, version: 0x0303))
            problem = clientProblem ?? serverProblem
        }
    }

    /// The records' raw forms with their stream offsets.
    private static func records(of stream: [UInt8], from start: Int) -> [TLSRecordReader.Record] {
        var reader = TLSRecordReader(keeping: [.changeCipherSpec, .alert, .handshake, .applicationData, .heartbeat])
        return reader.feed(stream[start...]).map { record in
            var shifted = record
            shifted.offset += start
            return shifted
        }
    }

    /// A record as sent, before any opening: application data is encrypted in every version
    /// (unread until opened), the rest is in the clear unless TLS 1.2's ChangeCipherSpec came first.
    private static func clear(_ record: TLSRecordReader.Record) -> Record {
        let encrypted = record.contentType == .applicationData
        return Record(outerType: record.contentType.rawValue, contentType: encrypted ? nil : record.contentType,
                      streamRange: record.offset..<(record.offset + 5 + record.length), plaintext: encrypted ? [] : record.fragment,
                      encrypted: encrypted, opened: !encrypted)
    }

    /// The fragments of the leading handshake records, joined: where the hello is.
    private static func leadingHandshake(_ records: [TLSRecordReader.Record]) -> [UInt8] {
        records.prefix { $0.contentType == .handshake }.prefix(8).flatMap(\.fragment)
    }

    /// Where the first hello of `type` (1 ClientHello, 2 ServerHello) starts: a handshake record
    /// header of TLS (3.x) whose message is of that type.
    static func helloStart(in stream: [UInt8], type: UInt8) -> Int? {
        guard stream.count >= 6 else { return nil }
        for index in 0...(stream.count - 6) where stream[index] == 22 && stream[index + 1] == 3 && stream[index + 2] <= 3 && stream[index + 5] == type {
            return index
        }
        return nil
    }

    private static func header(_ record: TLSRecordReader.Record) -> [UInt8] {
        [record.contentType.rawValue, 3, 3, UInt8(record.length >> 8), UInt8(record.length & 0xFF)]
    }

    /// TLS 1.3: every record of type 23 is encrypted, with the handshake keys up to this side's
    /// Finished and then with the traffic keys, which a KeyUpdate moves on. Returns why a
    /// record did not open.
    private static func open13(_ records: inout [Record], _ raw: [TLSRecordReader.Record], _ side: String,
                               handshake: [UInt8], traffic: [UInt8], _ suite: TLSSuiteParameters) -> String? {
        var decrypter = TLSRecordDecrypter(keys: TLSKeySchedule.keys(trafficSecret: handshake, suite), suite: suite, version: 0x0304)
        var secret = traffic
        var inHandshake = true
        for index in raw.indices where raw[index].contentType == .applicationData {
            guard let opened = decrypter.open(header: header(raw[index]), fragment: raw[index].fragment) else {
                return fail(&records, from: index, side)
            }
            records[index].contentType = TLSContentType(rawValue: opened.contentType)
            records[index].plaintext = opened.plaintext
            records[index].opened = true
            guard opened.contentType == TLSContentType.handshake.rawValue else { continue }
            let messages = TLSRecordRows.handshakeMessages(opened.plaintext)
            if inHandshake, messages.contains(20) {
                inHandshake = false
                decrypter = TLSRecordDecrypter(keys: TLSKeySchedule.keys(trafficSecret: secret, suite), suite: suite, version: 0x0304)
            } else if !inHandshake, messages.contains(24) {
                secret = TLSKeySchedule.expandLabel(secret, "traffic upd", length: suite.hash == .sha384 ? 48 : 32, suite.hash)
                decrypter = TLSRecordDecrypter(keys: TLSKeySchedule.keys(trafficSecret: secret, suite), suite: suite, version: 0x0304)
            }
        }
        return nil
    }

    /// TLS 1.2: the records after this side's ChangeCipherSpec are encrypted, whatever their
    /// outer type (an alert's too).
    private static func open12(_ records: inout [Record], _ raw: [TLSRecordReader.Record], _ side: String, _ decrypter: TLSRecordDecrypter) -> String? {
        var decrypter = decrypter
        guard let change = raw.firstIndex(where: { $0.contentType == .changeCipherSpec }) else { return nil }
        let encrypted = raw.indices.dropFirst(change + 1)
        for index in encrypted { records[index].encrypted = true }
        for index in encrypted {
            guard let opened = decrypter.open(header: header(raw[index]), fragment: raw[index].fragment) else {
                return fail(&records, from: index, side)
            }
            records[index].contentType = raw[index].contentType
            records[index].plaintext = opened.plaintext
            records[index].opened = true
        }
        return nil
    }

    /// Marks the encrypted records from `index` on unread: the sequence numbers after a record
    /// that did not open cannot be trusted.
    private static func fail(_ records: inout [Record], from index: Int, _ side: String) -> String {
        for later in index..<records.count where records[later].encrypted {
            records[later].opened = false
            records[later].contentType = nil
            records[later].plaintext = []
        }
        return "the \(side)'s record \(index + 1) (at stream offset \(records[index].streamRange.lowerBound)) did not decrypt with the logged keys"
    }
}
