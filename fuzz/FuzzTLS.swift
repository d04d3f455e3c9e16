
/// libFuzzer entry for the TLS readers of captures: the bytes as a stream of TLS records, fed
/// whole and in two pieces cut where the first byte says (a record split across segments), and
/// each handshake fragment read as a ClientHello and as a ServerHello. Any crash, hang or
/// sanitizer report is a bug; records the reader refuses are fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var whole = TLSRecordReader(keeping: [.handshake, .alert, .applicationData])
    var handshake: [UInt8] = []
    for record in whole.feed(bytes[...]) where record.contentType == .handshake { handshake += record.fragment }
    _ = ClientHello(handshake: handshake)
    _ = ServerHello(handshake: handshake)
    var pieces = TLSRecordReader(keeping: [.handshake])
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    _ = pieces.feed(bytes[..<cut])
    _ = pieces.feed(bytes[cut...])
    return 0
}
